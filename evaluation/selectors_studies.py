"""Reads of the studies that say which choices to trust: a collection's "Choosing a test"
study (thesis ch. 5) and its recompute, and the judgments that name their assessor for the
nested G-study (thesis §6.4)."""

from __future__ import annotations

from catalog.published import Collection
from evaluation.core.assessor_judgments import AssessorJudgment
from evaluation.models import OptimalityStudy, Recompute
from evaluation.selectors import collection_judgments


def collection_optimality(*, collection: Collection):
    """The collection's "Choosing a test" study, or ``None`` if never asked for."""
    return OptimalityStudy.objects.filter(collection=collection).first()


def optimality_recompute(*, collection: Collection) -> dict:
    """The state of the collection's "Choosing a test" recompute (idle if never asked)."""
    row = Recompute.objects.filter(kind="optimality", target_id=collection.pk).first()
    return (row or Recompute(kind="optimality", target_id=collection.pk)).to_dict()


def collection_assessor_judgments(*, collection: Collection) -> list[AssessorJudgment]:
    """The counting judgments made by assessors (not imported), each naming its assessor,
    for the nested G-study s × (h:q) (thesis §6.4): an unjudged scale is −1 on Fine (in the
    pool, not judged) and ``None`` on Broad."""
    rows = (
        collection_judgments(collection=collection)
        .filter(assessor__isnull=False)
        .order_by("pk")
        .values_list(
            "query__clip__external_id", "assessor_id", "clip__external_id", "fine", "broad"
        )
    )
    return [
        AssessorJudgment(
            query,
            str(assessor),
            clip,
            -1.0 if fine is None else float(fine),
            None if broad is None else float(broad),
        )
        for query, assessor, clip, fine, broad in rows.iterator(chunk_size=5000)
    ]
