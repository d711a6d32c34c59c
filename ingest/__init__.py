"""Files into a collection: clips, metadata, runs, judgments, MIREX folders; uploads as background jobs."""
