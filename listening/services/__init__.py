"""Listening's writes: what audio was served, headphone screens, listening copies."""
