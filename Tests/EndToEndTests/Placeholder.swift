// Tests for EndToEnd: see the other files here.
