"""Preference campaigns: task links, workers, traps and trust, practice, approvals, the example generator, imported answers."""
