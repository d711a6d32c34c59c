"""Tests of catalog."""
