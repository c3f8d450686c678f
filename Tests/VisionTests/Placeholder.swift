// Tests for Vision: see the other files here.
