"""Web plumbing every app uses and no domain: validation, roles, throttles, error pages, file reading, CSV writing, SQL helpers."""
