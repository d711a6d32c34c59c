"""``python manage.py evaluate``: the core's command line inside the project.

Takes exactly the arguments of ``python -m evaluation.core`` (``evaluate``, ``compare``
and ``reliability``), so that ``manage.py evaluate QRELS RUN -m nDCG@10`` and
``manage.py evaluate compare QRELS RUN RUN -m P@5`` work as they do on files alone.
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from evaluation.core.cli import main


class Command(BaseCommand):
    help = "Evaluate runs against qrels (see `python -m evaluation.core --help`)."

    def run_from_argv(self, argv: list[str]) -> None:
        # argv is [manage.py, evaluate, ...]: hand the rest to the core's parser untouched.
        sys.exit(main(argv[2:]))
