"""Tests of the evaluation layer (the numerical core's own are in evaluation/core/tests)."""
