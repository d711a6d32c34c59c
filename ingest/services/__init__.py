"""Uploads: an upload's files and its background job, and what each kind runs."""
