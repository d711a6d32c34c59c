"""Tests of crowd preference judging."""
