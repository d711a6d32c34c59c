"""HTML pages of the judging app, one module per area."""
