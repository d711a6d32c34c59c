"""Catalog's template tags."""
