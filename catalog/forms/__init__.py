"""Catalog's forms."""
