// Intentionally empty: see module.modulemap. (A system-library target needs one header.)
