"""Catalog's writes: collections, judgment sources, sharing, trash."""
