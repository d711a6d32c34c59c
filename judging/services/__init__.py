"""Writes that touch several models, named ``<entity>_<action>``, one module per area."""
