"""Tests of data migrations and of the move of issue 30 (an old database carried forward)."""
