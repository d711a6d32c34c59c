"""The writes of an answers upload: its column-mapping step (``answer_columns``) and what its background job runs (``answer_uploads``)."""
