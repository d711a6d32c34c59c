"""The listening rule, as every page and export that reads listening applies it (issue 23).

A clip counts as **played** once enough of its listening window was sent
(:func:`window_covered`, and :func:`window_covered_sql` for queries:
``EARSHOT_LISTEN_COVERAGE`` of it) and a person needs
:func:`clip_listening_seconds` of each clip, one at a time. The crowd reads it for
answers (:mod:`crowd.selectors.listening`: "every clip heard", the workers page, the
answers export and the mapping), relevance for judgments
(:func:`relevance.selectors.campaign_assessor_listening`), in a fixed number of statements
whatever their number, so that they agree on what was heard.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings


def clip_listening_seconds(duration: float | None) -> float:
    """The least listening that counts for one clip of ``duration`` seconds (unknown: None):
    ``EARSHOT_LISTEN_SECONDS_PER_CLIP``, or all of a shorter clip.

    >>> clip_listening_seconds(1.5)  # shorter than the default 5 s: all of it
    1.5
    """
    per_clip = settings.EARSHOT_LISTEN_SECONDS_PER_CLIP
    return min(per_clip, duration or per_clip)


def coverage_share() -> float:
    """The share of a clip's listening window that must be sent for it to count as played
    (``EARSHOT_LISTEN_COVERAGE``): every rule below reads it here."""
    return settings.EARSHOT_LISTEN_COVERAGE


def coverage_in_words() -> str:
    """The coverage rule in words, for the pages that state it: "50 % of its first 30
    seconds" with the default settings."""
    share = round(coverage_share() * 100)
    return f"{share} % of its first {settings.EARSHOT_LISTEN_WINDOW_SECONDS} seconds"


def window_covered(*, window_bytes: int, window_bytes_sent: int) -> bool:
    """Whether enough of a clip's listening window was sent for it to count as played:
    the coverage rule, in Python (:func:`window_covered_sql` writes the same in SQL)."""
    return window_bytes_sent > 0 and window_bytes_sent >= window_bytes * coverage_share()


def window_covered_sql(alias: str) -> tuple[str, list[float]]:
    """:func:`window_covered` as an SQL condition on a row of ``judging_audioserved``
    named ``alias``, with its parameter: for the queries that decide on every task page
    and answer which clips were heard, in one statement (issue 14)."""
    condition = (
        f"{alias}.window_bytes_sent > 0 AND {alias}.window_bytes_sent >= {alias}.window_bytes * %s"
    )
    return condition, [coverage_share()]


def window_coverage(window_bytes: int, window_bytes_sent: int) -> float:
    """Share of a clip's listening window sent, 0–1 (what pages show; the rule is
    :func:`window_covered`)."""
    return min(1.0, window_bytes_sent / window_bytes) if window_bytes else 0.0


def median_or_none(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


@dataclass(frozen=True)
class HeadphoneRates:
    """The headphone screen's results in a campaign of either kind (issue 23, item 2):
    what ``listening/_headphone_rates.html`` shows."""

    taken: int
    """Workers (or assessors) who answered every trial."""
    passed: int
    in_progress: int
    """Who started the trials and has not answered them all."""

    @property
    def pass_rate(self) -> float | None:
        return self.passed / self.taken if self.taken else None
