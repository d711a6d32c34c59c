"""Answers collected elsewhere (a CSV of preference answers, CrowdFlower/Figure Eight exports) into a campaign."""
