// VPSClient module: see README.
