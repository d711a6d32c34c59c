"""Assessor campaigns: assignments, judgments by ear on the Broad and Fine scales, low-cost judging."""
