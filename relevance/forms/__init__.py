"""Relevance judging's forms."""
