// Tests for VPSServer: see the other files here.
