"""Judged@k of the QRELS and RUN files a command line was given, for the warning about
unjudged documents that ``leaderboard`` and ``compare`` print as the results pages do
(:mod:`evaluation.core.judged`)."""

from __future__ import annotations

from evaluation.core.cli.inputs import InputError, describe, read_judgments
from evaluation.core.evaluate import evaluate
from evaluation.core.judged import judged_label, judged_summary
from evaluation.core.trec.readers import read_run_files


def judged_of_inputs(matrix, ns) -> dict | None:
    """``judged`` for :func:`evaluation.core.results.leaderboard` on ``matrix``'s queries:
    Judged@k over the whole lists (also with ``-J``) and the share of each top k that holds
    a document; ``None`` for a score table or a measure without a cut-off."""
    if getattr(ns, "scores", None) or len(ns.inputs) < 2:
        return None
    try:
        qrels = read_judgments(ns.inputs[0])
        found = judged_label(matrix.measure, default_scale=qrels.default)
        if found is None:
            return None
        name, k = found
        results = evaluate(qrels, read_run_files(ns.inputs[1:]), [name, "num_ret"])
    except (ValueError, OSError) as error:
        raise InputError(describe(error)) from None
    return judged_summary(
        results.matrix(name, missing="zero"), results.matrix("num_ret", missing="zero"),
        k=k, queries=matrix.queries,
    )  # fmt: skip
