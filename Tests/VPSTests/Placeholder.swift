// Tests for VPS: see the other files here.
