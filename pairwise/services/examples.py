"""A pair as a crowd example: a query, one clip stored as a, one as b.

Work pairs and trap pairs are made here alike (same source, same query, clips of the same
candidates, the stored sides drawn the same way), so nothing in an example tells a trap
pair from work; the crowd then shows each worker the two clips in a random order of its
own (:mod:`crowd.services.tasks`). A pair is one example per campaign whichever order it
is asked in (the crowd's signature sorts the two clips). A quiz pair is apart from the
work (``tag`` ``quiz`` in its signature): a quiz question is never served as work, so the
sort, asking for the same pair, gets an example of its own.
"""

from __future__ import annotations

import hashlib

from django.db import IntegrityError, transaction

from crowd.models import Example, ExampleItem, PreferenceCampaign
from crowd.services.examples import signature_of_ids


def pair_signature(query_id: int, first: int, second: int, tag: str = "") -> str:
    """The crowd's signature of the pair (the same for both orders), ``|tag`` after it."""
    signature = signature_of_ids(query_id, [first], [second])
    return f"{signature}|{tag}" if tag else signature


def pair_example_ensure(
    *,
    campaign: PreferenceCampaign,
    query_id: int,
    first: int,
    second: int,
    seed: int,
    tag: str = "",
) -> tuple[Example, bool]:
    """The campaign's example of the pair {``first``, ``second``} of ``query_id``, made if
    missing (whether it was). Which clip is stored as a is drawn from ``seed`` and the
    pair (a SHA-256 hash): the same in any process, half of the pairs each way."""
    signature = pair_signature(query_id, first, second, tag)
    existing = Example.objects.filter(campaign=campaign, signature=signature).first()
    if existing is not None:
        return existing, False
    low, high = sorted((first, second))
    digest = hashlib.sha256(f"{seed}:{signature}".encode()).digest()
    a, b = (low, high) if digest[0] % 2 == 0 else (high, low)
    try:
        with transaction.atomic():
            example = Example.objects.create(
                campaign=campaign, query_id=query_id, source=Example.SOURCE_PAIRS,
                signature=signature,
            )  # fmt: skip
    except IntegrityError:  # made meanwhile (the driver holds a lock: an import, say)
        return Example.objects.get(campaign=campaign, signature=signature), False
    ExampleItem.objects.bulk_create(
        [
            ExampleItem(example=example, side="a", rank=1, clip_id=a),
            ExampleItem(example=example, side="b", rank=1, clip_id=b),
        ]
    )
    return example, True
