"""Django forms of the judging pages: ``relevance`` (assessors, organisers) and ``crowd``."""
