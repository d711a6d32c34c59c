"""Tests of relevance judging."""
