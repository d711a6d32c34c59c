"""The groups file: a partially ordered ground truth as text, ``NAME QUERY DOC GROUP``.

One line per (query, document): the name of the ground truth (like a TREC run's tag,
so that one file can hold several: the experts', the crowd's), the query, the document
and its group, 1 holding the documents most similar to the query, 2 the next most
similar, and so on (Typke et al. 2006, §3: the order of the groups is known, the order
inside a group is not). Fields are separated by whitespace; blank lines are skipped.

Reading checks every line and names the file and line of the first problem, as the
TREC readers do (:class:`~evaluation.core.trec.FormatError`, ``path:line: problem``):
four fields, a group that is a whole number from 1, a document listed once per query,
and groups numbered without gaps (a query with groups 1 and 3 lacks its group 2).

>>> truth = read_groups(b"gt q1 d1 1\\ngt q1 d2 1\\ngt q1 d3 2\\n")
>>> truth["gt"]["q1"]
[['d1', 'd2'], ['d3']]
>>> print(groups_text(truth), end="")
gt q1 d1 1
gt q1 d2 1
gt q1 d3 2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from evaluation.core.trec import FormatError, Qrels, sort_queries
from evaluation.core.trec.tokens import read_buffer, shown

#: query → groups, most similar first, each a list of documents
Groups = dict[str, list[list[str]]]
FIELDS = "NAME QUERY DOC GROUP"


def read_groups(source) -> dict[str, Groups]:
    """The ground truths of a groups file: ``{name: {query: [group 1, group 2, …]}}``.

    ``source`` is a path, the content (``bytes``, or ``str`` with newlines) or lines,
    as for :func:`~evaluation.core.trec.read_qrels`. Documents of a group are listed in
    file order. Raises :class:`~evaluation.core.trec.FormatError` naming the line.
    """
    data = read_buffer(source)
    path = data.name
    raw = bytes(data.data[: data.size])
    found: dict[tuple[str, str], dict[str, tuple[int, int]]] = {}  # doc → (group, line)
    first_line: dict[tuple[str, str, int], int] = {}
    for number, line in enumerate(raw.split(b"\n"), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 4:
            raise FormatError(path, number, f"expected 4 fields ({FIELDS}), found {len(fields)}")
        try:
            name, query, doc, group_text = (field.decode() for field in fields)
        except UnicodeDecodeError:
            raise FormatError(path, number, "the line is not UTF-8 text") from None
        group = _group_number(group_text, path, number)
        docs = found.setdefault((name, query), {})
        if doc in docs:
            earlier_group, earlier_line = docs[doc]
            raise FormatError(
                path,
                number,
                f"document {shown(doc)} of query {shown(query)} in {shown(name)} is already "
                f"in group {earlier_group} (line {earlier_line}); a document is in one group",
            )
        docs[doc] = (group, number)
        first_line.setdefault((name, query, group), number)
    if not found:
        raise FormatError(path, None, f"no groups found (expected lines of {FIELDS})")
    truths: dict[str, Groups] = {}
    for (name, query), docs in found.items():
        count = max(group for group, _ in docs.values())
        groups: list[list[str]] = [[] for _ in range(count)]
        for doc, (group, _) in docs.items():
            groups[group - 1].append(doc)
        missing = [g for g in range(1, count + 1) if not groups[g - 1]]
        if missing:
            after = min(g for g in range(missing[0] + 1, count + 1) if groups[g - 1])
            raise FormatError(
                path,
                first_line[(name, query, after)],
                f"query {shown(query)} in {shown(name)} has group {after} but no group "
                f"{missing[0]}: groups are numbered 1, 2, 3, … without gaps",
            )
        truths.setdefault(name, {})[query] = groups
    return truths


def _group_number(text: str, path: str, line: int) -> int:
    if not text.isdecimal() or not text.isascii() or int(text) < 1:
        raise FormatError(
            path, line, f"group {shown(text)} is not a whole number from 1 (1 = most similar)"
        )
    return int(text)


def groups_text(truths: Mapping[str, Mapping[str, Sequence[Sequence[str]]]]) -> str:
    """The groups file of ``{name: {query: groups}}``: queries in :func:`sort_queries`
    order, then groups in order, documents sorted inside a group (their order there
    means nothing). Raises ``ValueError`` for an id the file could not hold (empty, or
    with whitespace) and for a document in two groups of one query."""
    lines = []
    for name, by_query in truths.items():
        for query in sort_queries(by_query):
            seen: set[str] = set()
            for number, group in enumerate(by_query[query], start=1):
                if not group:
                    raise ValueError(f"group {number} of query {query!r} is empty")
                for doc in sorted(group):
                    _check_id(name, "name")
                    _check_id(query, "query")
                    _check_id(doc, "document")
                    if doc in seen:
                        raise ValueError(f"document {doc!r} of query {query!r} is in two groups")
                    seen.add(doc)
                    lines.append(f"{name} {query} {doc} {number}\n")
    return "".join(lines)


def _check_id(value: str, what: str) -> None:
    if not value or any(c.isspace() for c in value):
        raise ValueError(f"{what} {value!r} cannot be written to a groups file (empty or spaced)")


def write_groups(path, truths: Mapping[str, Mapping[str, Sequence[Sequence[str]]]]) -> None:
    """Write :func:`groups_text` of ``truths`` to ``path`` (UTF-8)."""
    text = groups_text(truths)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def group_levels(groups: Sequence[Sequence[str]]) -> dict[str, float]:
    """Each document's level: with :math:`G` groups, group :math:`g` has level
    :math:`G - g + 1`, so the most similar group has the highest level and every
    document of the ground truth a level above 0.

    With these levels eq. (2.17) is Typke et al.'s ADR: the documents of level at least
    :math:`r_{I_i}` are the groups up to the one holding the i-th ground-truth item
    (:func:`~evaluation.core.measures.average_dynamic_recall_groups` does the same).

    >>> group_levels([["a", "b"], ["c"]])
    {'a': 2.0, 'b': 2.0, 'c': 1.0}
    """
    return {doc: float(len(groups) - g) for g, group in enumerate(groups) for doc in group}


def groups_qrels(truth: Mapping[str, Sequence[Sequence[str]]]) -> Qrels:
    """One ground truth (``{query: groups}``) as judgments of :func:`group_levels`, so
    that every measure (``ADR``, ``ADR@k``, nDCG, …) can be computed on it: their one
    column is ``groups`` (the scale ``groups`` reads it; ``raw``, the default, too).

    >>> qrels = groups_qrels({"q1": [["a"], ["b", "c"]]})
    >>> qrels.column("groups").tolist(), qrels.column("raw").tolist()
    ([2.0, 1.0, 1.0], [2.0, 1.0, 1.0])
    """
    records = [
        (query, doc, level)
        for query, groups in truth.items()
        for doc, level in group_levels(groups).items()
    ]
    return Qrels.from_records(records, columns=("groups",))
