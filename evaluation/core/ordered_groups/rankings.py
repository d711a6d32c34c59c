"""Ordered groups from experts' rankings (Typke et al. 2005; Urbano et al. 2010).

Each expert orders a query's candidates from most to least similar; a candidate gets
one rank from each expert who ranked it. Typke et al. (2005) "ordered the incipits by
the median ranks assigned to them by the human experts. For every incipit, we used the
Wilcoxon rank sum test to compare the list of ranks assigned to it with the lists of
ranks assigned to its predecessors", which gives groups whose order is known: a new
group starts where a candidate's ranks differ significantly from those above it.
Urbano et al. (2010, §4) showed that such lists cannot always be made consistent and
compared rules for where a new group starts; here they are the ``rule`` option.

What is compared, exactly (:func:`groups_from_ranks`)
    * **Order.** Candidates by the median of their ranks, smallest first. Ties of the
      median are broken by the mean rank, then by the document id (so that the result
      does not depend on input order). *Not found in the sources available here*: how
      Typke et al. broke ties of the median; the mean is this module's choice.
    * **Test.** Two-sided Wilcoxon rank-sum test of the two candidates' lists of
      ranks (:func:`~evaluation.core.ordered_groups.ranksum.rank_sum_pvalue`: mid-ranks
      for tied ranks, the normal approximation with tie and continuity corrections, the
      exact distribution for small samples without ties). A candidate's list holds the
      ranks of the experts who ranked it; the lists may differ in length.
    * **Rule**, comparing each candidate in order with the *current group* (the
      candidates since the last group boundary):

      ``"all"`` (default)
          a new group starts when the candidate's ranks differ significantly
          (:math:`p < \\alpha`) from those of *every* candidate of the current group:
          the reading of Typke et al.'s "compared with its predecessors" taken here,
          and the rule Urbano et al. (2010) call *All*;
      ``"any"``
          … from those of *at least one* candidate of the current group (Urbano et al.
          2010, *Any*: smaller groups);
      ``"prev"``
          … from those of the candidate just before it (Urbano et al. 2010, *Prev*).

      With a current group of one candidate the three rules agree. *Not found in the
      sources available here*: Typke et al.'s own words on which predecessors must
      differ, and Urbano et al.'s further arrangements of the list; only these three
      rules are offered.
    * **α.** A parameter; the default 0.25 is the significance level as recalled for
      the RISM A/II ground truth, *not confirmed* against Typke et al.'s text, which
      was not available here. Choose it for your study (0.05 gives fewer, larger groups).

References
    R. Typke, M. den Hoed, J. de Nooijer, F. Wiering, R. C. Veltkamp, "A ground truth
    for half a million musical incipits", Journal of Digital Information Management
    3(1):34–39, 2005. J. Urbano, M. Marrero, D. Martín, J. Lloréns, "Improving the
    generation of ground truths based on partially ordered lists", ISMIR 2010,
    pp. 285–290. Thesis §2.5 (ADR, eq. 2.17) cites both.

The rankings file read by :func:`read_rankings` is ``EXPERT QUERY DOC RANK``: one line
per (expert, query, candidate), rank 1 the most similar.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from evaluation.core.ordered_groups.ranksum import rank_sum_pvalue
from evaluation.core.trec import FormatError
from evaluation.core.trec.tokens import read_buffer, shown

RULES = ("all", "any", "prev")
DEFAULT_ALPHA = 0.25


@dataclass(frozen=True)
class RankGrouping:
    """The groups of one query and how they were found.

    ``order`` is the candidates by median rank; ``medians`` their median ranks;
    ``pvalues`` maps ``(candidate, earlier candidate)`` to the p-value of every
    comparison made, for showing why a boundary is where it is.
    """

    groups: tuple[tuple[str, ...], ...]
    order: tuple[str, ...]
    medians: Mapping[str, float]
    pvalues: Mapping[tuple[str, str], float]


def groups_from_ranks(
    ranks: Mapping[str, Sequence[float]],
    *,
    alpha: float = DEFAULT_ALPHA,
    rule: str = "all",
) -> RankGrouping:
    """Groups of one query's candidates from the ranks experts gave them.

    ``ranks`` maps each candidate to the ranks it got (one per expert who ranked it).
    See the module docstring for the order, the test and the rules.

    >>> ranks = {"a": [1, 1, 1, 1, 1, 1], "b": [2, 3, 2, 3, 2, 3], "c": [3, 2, 3, 2, 3, 2]}
    >>> groups_from_ranks(ranks, alpha=0.05).groups
    (('a',), ('b', 'c'))
    """
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; valid: {', '.join(RULES)}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
    for doc, values in ranks.items():
        if len(values) == 0:
            raise ValueError(f"candidate {doc!r} has no ranks")
    medians = {doc: float(statistics.median(values)) for doc, values in ranks.items()}
    means = {doc: float(statistics.fmean(values)) for doc, values in ranks.items()}
    order = sorted(ranks, key=lambda doc: (medians[doc], means[doc], doc))
    pvalues: dict[tuple[str, str], float] = {}

    def differs(doc: str, other: str) -> bool:
        p = pvalues[(doc, other)] = rank_sum_pvalue(ranks[doc], ranks[other])
        return p < alpha

    groups: list[list[str]] = []
    for doc in order:
        current = groups[-1] if groups else None
        if current is None:
            new_group = True
        elif rule == "prev":
            new_group = differs(doc, current[-1])
        else:
            results = [differs(doc, other) for other in current]
            new_group = all(results) if rule == "all" else any(results)
        if new_group:
            groups.append([doc])
        else:
            current.append(doc)
    return RankGrouping(
        groups=tuple(tuple(g) for g in groups),
        order=tuple(order),
        medians=medians,
        pvalues=pvalues,
    )


def read_rankings(source) -> dict[str, dict[str, list[float]]]:
    """A rankings file ``EXPERT QUERY DOC RANK`` as ``{query: {doc: [ranks]}}``.

    Ranks are whole numbers from 1; an expert ranks a candidate of a query once. Tied
    ranks (two candidates placed together) are allowed. Raises
    :class:`~evaluation.core.trec.FormatError` naming the file and line.

    >>> read_rankings(b"e1 q a 1\\ne1 q b 2\\ne2 q b 1\\ne2 q a 2\\n")
    {'q': {'a': [1.0, 2.0], 'b': [2.0, 1.0]}}
    """
    data = read_buffer(source)
    path = data.name
    by_query: dict[str, dict[str, list[float]]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for number, line in enumerate(bytes(data.data[: data.size]).split(b"\n"), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 4:
            raise FormatError(
                path, number, f"expected 4 fields (EXPERT QUERY DOC RANK), found {len(fields)}"
            )
        try:
            expert, query, doc, rank = (field.decode() for field in fields)
        except UnicodeDecodeError:
            raise FormatError(path, number, "the line is not UTF-8 text") from None
        if not rank.isascii() or not rank.isdecimal() or int(rank) < 1:
            raise FormatError(
                path, number, f"rank {shown(rank)} is not a whole number from 1 (1 = most similar)"
            )
        key = (expert, query, doc)
        if key in seen:
            raise FormatError(
                path,
                number,
                f"expert {shown(expert)} already ranked {shown(doc)} for query {shown(query)} "
                f"(line {seen[key]})",
            )
        seen[key] = number
        by_query.setdefault(query, {}).setdefault(doc, []).append(float(rank))
    if not by_query:
        raise FormatError(path, None, "no rankings found (expected lines of EXPERT QUERY DOC RANK)")
    return by_query
