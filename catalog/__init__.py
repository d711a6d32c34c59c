"""A collection and all in it: clips, queries, systems, runs, judgments, judgment sources, sharing, trash, and the organiser's access rule."""
