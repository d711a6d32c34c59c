"""Catalog's REST API: collections and what they hold, background jobs."""
