"""What a crowd platform's ids look like (issue 29, item 6): checked when a worker arrives
through a task link (:class:`crowd.forms.campaigns.TaskLinkForm`), and again before an id
is written into an export (:func:`exportable`).

A platform id used to be any name: ``PROLIFIC_PID=X Y`` (or ``X,Y``) was accepted, and
the approvals export's bulk-approve and bulk-bonus lines then carried both ids, which
Prolific's bulk boxes read as two participants. Now each id has its platform's format:

- **Prolific** participant (``PROLIFIC_PID``): 24 hexadecimal characters, as Prolific's
  ids are (written in small letters here, so that one participant is one worker);
- **Mechanical Turk**: a worker id (``workerId``) is ``A`` then capital letters and
  digits, an assignment or HIT id capital letters and digits, at most 64 characters
  (the Mechanical Turk API's ``CustomerId`` and ``EntityId`` patterns, ``^A[A-Z0-9]+$``
  and ``^[A-Z0-9]+$``);
- **anything else** — a generic ``?worker=`` id, Prolific's study and session ids —
  letters, digits, ``.``, ``_`` and ``-``, starting with a letter or a digit, at most 64
  characters: never a space, a comma, a quote or a character a spreadsheet reads as a
  formula, so one id is one cell and one line of a bulk box.

>>> prolific_id_problem("5f1e2d3c4b5a69788796a5b4") is None
True
>>> prolific_id_problem("5f1e2d3c4b5a69788796a5b4 5f1e2d3c4b5a69788796a5b5")
'a Prolific id is 24 characters, each a digit or a letter from a to f'
>>> exportable("generic", "lab-7"), exportable("generic", "X,Y")
('lab-7', '')
"""

from __future__ import annotations

import re

PROLIFIC = re.compile(r"[0-9a-f]{24}")
MTURK_WORKER = re.compile(r"A[A-Z0-9]{1,63}")
MTURK_ENTITY = re.compile(r"[A-Z0-9]{1,64}")
TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")

PROLIFIC_FORMAT = "a Prolific id is 24 characters, each a digit or a letter from a to f"
MTURK_WORKER_FORMAT = (
    "a Mechanical Turk worker id is the letter A followed by capital letters and digits, "
    "at most 64 characters"
)
MTURK_ENTITY_FORMAT = (
    "a Mechanical Turk assignment or HIT id is capital letters and digits, at most 64"
)
TOKEN_FORMAT = (
    "an id is letters, digits, dots, hyphens and underscores, starting with a letter or a "
    "digit, at most 64 characters"
)


def _problem(pattern: re.Pattern, value: str, format_: str) -> str | None:
    return None if pattern.fullmatch(value) else format_


def prolific_id_problem(value: str) -> str | None:
    """Why ``value`` (already in small letters) is not a Prolific participant id, or None."""
    return _problem(PROLIFIC, value, PROLIFIC_FORMAT)


def mturk_worker_id_problem(value: str) -> str | None:
    return _problem(MTURK_WORKER, value, MTURK_WORKER_FORMAT)


def mturk_entity_id_problem(value: str) -> str | None:
    """An assignment or HIT id."""
    return _problem(MTURK_ENTITY, value, MTURK_ENTITY_FORMAT)


def token_problem(value: str) -> str | None:
    """A generic worker id, or Prolific's study or session id."""
    return _problem(TOKEN, value, TOKEN_FORMAT)


PLATFORM_ID_PROBLEMS = {
    "prolific": prolific_id_problem,
    "mturk": mturk_worker_id_problem,
    "generic": token_problem,
}
"""The check of a worker's ``platform_id`` by their ``platform``
(:class:`crowd.models.Worker`'s ``platform``)."""


def exportable(platform: str, value: str, *, check=None) -> str:
    """``value`` when it has its platform's format (``check``: the check of another id of
    that platform), else ``""``: a worker saved before ids were checked keeps whatever
    they sent, and an export never writes it where a platform would read two ids."""
    check = check or PLATFORM_ID_PROBLEMS.get(platform, token_problem)
    return value if value and check(value) is None else ""


def submission_ids(worker) -> dict[str, str]:
    """The worker's platform ids as the exports write them: each only when it has its
    platform's format (:func:`exportable`), so that no line of an
    export can carry two ids (a worker who arrived before ids were checked, as ``X Y``,
    gets empty cells, and the reason says to check them by hand)."""
    on = worker.platform
    entity = mturk_entity_id_problem if on == "mturk" else token_problem
    return {
        "participant_id": exportable(on, worker.platform_id),
        "session_id": exportable(on, worker.session_id, check=token_problem),
        "study_id": exportable(on, worker.study_id, check=token_problem),
        "assignment_id": exportable(on, worker.assignment_id, check=entity),
        "hit_id": exportable(on, worker.hit_id, check=entity),
    }
