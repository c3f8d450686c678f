// Tests for GraffityARCloud: see the other files here.
