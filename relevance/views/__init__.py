"""Relevance judging's pages: organisers' campaign pages and settings, the assessor's judging page and headphone screen."""
