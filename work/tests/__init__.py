"""Tests of background work."""
