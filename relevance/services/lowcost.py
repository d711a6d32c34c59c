"""Low-cost relevance campaigns (thesis ch. 7–8) on the judging side: their settings, and
the judging order the evaluation layer hands back.

The mathematics is in :mod:`evaluation.core.lowcost`. The evaluation layer recomputes a
low-cost campaign's estimates in the background (recompute kind ``lowcost``, coalesced)
and stores each pair's weight and priority on its pool entry with
:func:`pool_priorities_store`, so that "Get next"
(:func:`relevance.services.campaigns.assignment_next`) is one indexed read of judging's
own rows, never a model fit in the request.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import connection, transaction

from catalog.selectors import collection_judged_scales
from evaluation.core.lowcost import measure_with_scale
from evaluation.core.lowcost.measures import UnsupportedMeasure, measure_spec
from evaluation.core.names import MeasureNameError
from relevance.models import PoolEntry, RelevanceCampaign

LOWCOST_MEASURE = "CG(scale=fine)@5"
"""The measure a low-cost campaign estimates unless told (the model's default)."""


def lowcost_default_measure(*, collection, cutoff: int = 5) -> str:
    """CG_l at the campaign's cut-off (:data:`LOWCOST_MEASURE` for the default 5) on the
    Fine scale, or on the Broad scale for a collection judged on the Broad scale only
    (TREC qrels), so that its judgments count from the first estimate instead of the
    relevance model standing in for all of them (issue 31)."""
    scale = "broad" if collection_judged_scales(collection=collection) == ("broad",) else "fine"
    return f"CG(scale={scale})@{cutoff}"


LOWCOST_SETTINGS = ("lowcost_measure", "lowcost_target", "lowcost_stop_at")
"""A low-cost campaign's settings (besides its mode, fixed at creation)."""

MAX_HALF_WIDTH = 0.5
"""Scores lie in [0, 1]: an interval wider than ±0.5 says nothing."""


def lowcost_settings_check(
    *,
    cutoff: int,
    assessors_per_query: int,
    queries_per_assessor: int | None,
    measure: str,
    target: str,
    stop_at: float,
) -> str:
    """Check a low-cost campaign's settings; return the measure's canonical name.

    Raises ``ValidationError`` with a message per field (the campaign form's names).
    """
    errors: dict[str, str] = {}
    label = ""
    try:
        label = measure_with_scale(measure.strip())
    except (UnsupportedMeasure, MeasureNameError) as error:
        errors["lowcost_measure"] = str(error)
    else:
        k = measure_spec(label).k
        if k > cutoff:
            errors["lowcost_measure"] = (
                f"{label} looks at the top {k} but the pool holds each system's top {cutoff}: "
                f"use a cut-off of at most {cutoff}."
            )
    if target == RelevanceCampaign.RELATIVE:
        if not 0.5 <= stop_at < 1:
            errors["lowcost_stop_at"] = (
                "For the ranking, stop at a mean confidence from 0.5 up to (not including) 1, "
                "e.g. 0.95."
            )
    elif target == RelevanceCampaign.ABSOLUTE:
        if not 0 < stop_at <= MAX_HALF_WIDTH:
            errors["lowcost_stop_at"] = (
                f"For the scores, stop at a half-width above 0 and at most {MAX_HALF_WIDTH}, "
                "e.g. 0.05."
            )
    else:
        errors["lowcost_target"] = "Stop when sure of the ranking (relative) or the scores."
    if assessors_per_query != 1:
        errors["assessors_per_query"] = "A low-cost campaign judges each pair once: use 1."
    if queries_per_assessor is not None:
        errors["queries_per_assessor"] = (
            "A low-cost campaign hands out single pairs, not queries: leave the cap empty."
        )
    if errors:
        raise ValidationError(errors)
    return label


def pool_priorities_store(
    *, campaign: RelevanceCampaign, priorities: Mapping[int, tuple[float, int | None]]
) -> int:
    """Store ``{pool entry id: (weight, priority)}`` (priority 1 is judged first, ``None``
    once known); entries not given get no weight. Writes only the rows that changed and
    returns how many.
    """
    stored = PoolEntry.objects.filter(campaign=campaign).values_list("pk", "weight", "priority")
    changed = [
        (*new, pk)
        for pk, weight, priority in stored
        if (weight, priority) != (new := priorities.get(pk, (None, None)))
    ]
    # One parametrised UPDATE per row in a single executemany: Django's bulk_update
    # builds a CASE expression per row and takes seconds for a MIREX-size pool (7 s
    # against 0.1 s for 6,322 rows, benchmarks/bench_lowcost_campaign.py). Names come
    # from the model, values are parameters.
    meta, quote = PoolEntry._meta, connection.ops.quote_name
    table, pk = quote(meta.db_table), quote(meta.pk.column)
    weight, priority = (quote(meta.get_field(f).column) for f in ("weight", "priority"))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET {weight} = %s, {priority} = %s WHERE {pk} = %s", changed
        )
    return len(changed)
