// Vision module: see README.
