"""Crowd's forms."""
