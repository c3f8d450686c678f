// GraffityARCloud module: see README.
