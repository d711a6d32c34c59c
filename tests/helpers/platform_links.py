"""Participant ids for task links in tests, made from a readable name.

Every id a task link brings must have its platform's format (:mod:`crowd.platform_ids`):
a test names its participants ``"early"``, ``"p-good"``, … and sends the id made from
that name. The same name always makes the same id.
"""

from __future__ import annotations

from demo.seed import demo_prolific_id as prolific_id


def mturk_id(name: str) -> str:
    """A Mechanical Turk worker id: ``A``, then capital letters and digits.

    >>> mturk_id("turker") == mturk_id("turker") and mturk_id("turker").startswith("A")
    True
    """
    return "A" + prolific_id(name)[:13].upper()


def participant_id(platform: str, name: str) -> str:
    """The id of ``name`` on ``platform`` (``prolific``, ``mturk`` or ``generic``)."""
    return {"prolific": prolific_id, "mturk": mturk_id}.get(platform, str)(name)


__all__ = ["mturk_id", "participant_id", "prolific_id"]
