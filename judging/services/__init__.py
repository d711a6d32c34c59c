"""Services of the judging app: writes that touch several models, one module per area."""
