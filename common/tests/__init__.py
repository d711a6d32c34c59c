"""Tests of common."""
