"""Catalog's pages: collections, judgment sources, trash, background jobs."""
