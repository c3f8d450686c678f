// VPS module: see README.
