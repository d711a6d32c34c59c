"""Small pieces the command lines share: a comma-separated list of integers as an
argument, and a document printed as text, CSV or JSON (same keys as the results pages)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from evaluation.core.jsonsafe import json_safe


def integer_list(*, minimum: int, problem: str) -> Callable[[str], list[int]]:
    """An ``argparse`` type: ``"50,20"`` → ``[50, 20]``; ``problem`` says what is wrong
    with a value below ``minimum``."""

    def parse(text: str) -> list[int]:
        try:
            values = [int(x) for x in text.split(",") if x.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected comma-separated integers, got {text!r}"
            ) from None
        if not values or min(values) < minimum:
            raise argparse.ArgumentTypeError(problem)
        return values

    return parse


def print_document(document: dict, fmt: str, *, text: Callable, csv: Callable | None) -> None:
    """Write ``document`` to standard output as ``fmt`` (``json``, ``csv`` or ``text``)."""
    if fmt == "json":
        sys.stdout.write(json.dumps(json_safe(document), indent=2, ensure_ascii=False) + "\n")
    elif fmt == "csv" and csv is not None:
        sys.stdout.write(csv(document))
    else:
        sys.stdout.write(text(document))
