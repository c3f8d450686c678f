// VPSServer module: see README.
