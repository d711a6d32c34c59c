"""Evaluation: the Django layer (tasks, results, pages) around the Django-free ``evaluation.core``.

Nothing here may import Django at package level: ``evaluation.core`` must import
without settings.
"""
