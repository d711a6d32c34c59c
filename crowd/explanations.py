"""A trap question's explanation, written without naming a side and shown in each worker's
orientation (issue 31 item 2).

A worker sees an example's two stored lists in a random order (``PreferenceTask.swapped``),
so an explanation that names "list A" is right for half the workers and contradicts the
expected answer for the others. An explanation is therefore stored **side-neutral**: it
either describes the lists without naming a side ("the list with the query's own
instruments") or names them with the placeholders ``{a}`` and ``{b}`` — the stored lists
a and b, shown as List A and List B on the organiser's trap page and as the columns
``list_a`` and ``list_b`` of an examples file. :func:`explanation_shown` fills them in
as each worker saw the lists; :func:`explanation_check` refuses an explanation that names
a side in words, whoever writes it (the trap page, the API, an examples file).

What a shown explanation tells a worker is what their own screen already shows: which of
*their* lists is which. The stored order never reaches them, and an explanation that
cannot be shown right (one stored before this rule that still names a side) is shown to
nobody, so that whether it is shown says nothing about the order either.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

__all__ = [
    "PLACEHOLDERS",
    "explanation_check",
    "explanation_names_a_side",
    "explanation_shown",
    "explanation_turned",
]

PLACEHOLDERS = {"a": "{a}", "b": "{b}"}
"""The stored lists a and b in an explanation."""

_PLACEHOLDER = re.compile(r"\{([abAB])\}")
_BRACES = re.compile(r"\{[^{}]*\}")

_VERBS = r"(?:is|was|has|had|holds|does|did|sounds|seems|contains|wins|and|or)\b"
_SIDE_NAMED = [
    # "list A", "lists a and b", "side B", "column list_a" (not "which list a worker …")
    re.compile(
        r"\b(?i:list|side|column)s?[\s_]+(?:[AB]\b|[ab]\b(?!\s+[a-z])|[ab](?=\s+" + _VERBS + r"))"
    ),
    # "A is better", "B does not", "A's clips", "than A", "B." — a capital A or B on its own
    re.compile(r"\bB\b"),
    re.compile(r"\bA(?=\s+" + _VERBS + r")"),
    re.compile(r"\bA(?=['’]s\b)"),
    re.compile(r"\b(?:than|and|or|over|to|from|in|of|with|versus|vs\.?)\s+A\b"),
    re.compile(r"\bA(?=\s*[.,;:!?)])"),
]


def explanation_names_a_side(text: str) -> str | None:
    """The words of ``text`` that name a side of the lists in letters (placeholders
    aside), else None.

    >>> explanation_names_a_side("List A holds clips of the query's own family; B does not.")
    'List A'
    >>> explanation_names_a_side("{a} holds clips of the query's own family; {b} does not.")
    >>> explanation_names_a_side("A clip of the query's own family leads one list.")
    """
    plain = _PLACEHOLDER.sub(" ", text)
    for pattern in _SIDE_NAMED:
        found = pattern.search(plain)
        if found:
            return found.group(0)
    return None


def explanation_check(text: str) -> str:
    """``text`` if it is side-neutral; a ``ValidationError`` saying what to write instead.

    Refused: a side named in letters (:func:`explanation_names_a_side`) and braces other
    than ``{a}`` and ``{b}`` (a typing slip would reach workers as it is).
    """
    named = explanation_names_a_side(text)
    if named:
        raise ValidationError(
            f"The explanation names a side (“{named}”), but workers may see the two lists "
            "the other way round. Write {a} for the list shown here as List A and {b} for "
            "List B (each worker reads them as their own sides), or describe the lists "
            "without naming a side, e.g. “the list with the query's own instruments”."
        )
    unknown = [b for b in _BRACES.findall(text) if not _PLACEHOLDER.fullmatch(b)]
    if unknown:
        raise ValidationError(
            f"The explanation has “{unknown[0]}”: only {{a}} and {{b}} (the lists shown here "
            "as List A and List B) are filled in."
        )
    return text


def explanation_shown(text: str, *, swapped: bool) -> str:
    """``text`` as a worker who saw the stored lists ``swapped`` reads it: ``{a}`` and
    ``{b}`` become "List A" and "List B" on their screen; empty when ``text`` names a side
    in letters (stored before :func:`explanation_check`: right for only one order).

    >>> explanation_shown("{a} holds the query's own family; {b} does not.", swapped=True)
    "List B holds the query's own family; List A does not."
    """
    if explanation_names_a_side(text):
        return ""
    shown = {"a": "List B", "b": "List A"} if swapped else {"a": "List A", "b": "List B"}
    return _PLACEHOLDER.sub(lambda m: shown[m.group(1).lower()], text)


def explanation_turned(text: str) -> str:
    """``text`` about the lists the other way round (``{a}`` and ``{b}`` exchanged): an
    examples file's row that matches an example the campaign stores the other way round.

    >>> explanation_turned("{a} is livelier than {b}.")
    '{b} is livelier than {a}.'
    """
    return _PLACEHOLDER.sub(lambda m: "{b}" if m.group(1).lower() == "a" else "{a}", text)
