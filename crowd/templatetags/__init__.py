"""Crowd's template tags."""
