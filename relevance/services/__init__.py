"""Relevance judging's writes: campaigns, assignments and judgments, low-cost judging, the assessor's headphone screen, campaign settings."""
