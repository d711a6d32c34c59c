"""Tests of the past-answers import."""
