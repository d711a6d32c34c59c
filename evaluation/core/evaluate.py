"""One call to score many runs on many measures: :func:`evaluate` → :class:`Results`."""

from __future__ import annotations

import contextvars
import csv
import io
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import chain

import numpy as np

from evaluation.core.measures.registry import WHOLE_MATRIX, compute
from evaluation.core.names import Measure, parse_measures
from evaluation.core.ranking import RankedJudgments, rank_judgments, rank_judgments_blocks
from evaluation.core.scores import ScoreMatrix
from evaluation.core.trec import FormatError, Qrels, Run, read_qrels, read_runs, sort_queries
from evaluation.core.trec.stream import NotStreamable, run_file_blocks


@dataclass(frozen=True)
class RunScores:
    """Per-query scores of one run: ``scores[label][j]`` is on ``queries[j]``."""

    queries: tuple[str, ...]
    scores: Mapping[str, np.ndarray]


@dataclass(frozen=True)
class Results:
    """Scores of several runs on several measures, per query and aggregated.

    The aggregate of a measure over queries is the mean, except trec_eval's counts
    (``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret``), which are summed.
    """

    measures: tuple[Measure, ...]
    runs: Mapping[str, RunScores]
    complete: bool = False

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(m.label for m in self.measures)

    def _measure(self, name: str | Measure) -> Measure:
        label = name.label if isinstance(name, Measure) else name
        for m in self.measures:
            if m.label == label:
                return m
        parsed = parse_measures(label)
        for m in self.measures:
            if len(parsed) == 1 and m.key == parsed[0].key:
                return m
        raise KeyError(f"{label!r} was not evaluated; evaluated: {', '.join(self.labels)}")

    def per_query(self, run: str, measure: str | Measure) -> dict[str, float]:
        """``{query: score}`` of one run on one measure."""
        m = self._measure(measure)
        scores = self.runs[run]
        return dict(zip(scores.queries, scores.scores[m.label].tolist(), strict=True))

    def mean(self, run: str, measure: str | Measure) -> float:
        """Mean over the evaluated queries (a sum for trec_eval's counts)."""
        m = self._measure(measure)
        values = self.runs[run].scores[m.label]
        if m.summed:
            return float(values.sum())
        return float(values.mean()) if len(values) else 0.0

    def means(self) -> dict[str, dict[str, float]]:
        """``{run: {measure: mean}}``."""
        return {run: {m.label: self.mean(run, m) for m in self.measures} for run in self.runs}

    def matrix(self, measure: str | Measure, *, missing: str | None = None) -> ScoreMatrix:
        """The systems × queries :class:`ScoreMatrix` of one measure.

        Queries are every query some run was evaluated on, in sorted order. A run
        without a ranking for one of them gets 0 when ``missing="zero"`` (the default
        with ``complete=True``, as trec_eval ``-c``); with ``missing="drop"`` (the
        default otherwise) only queries every run has are kept.
        """
        m = self._measure(measure)
        missing = missing or ("zero" if self.complete else "drop")
        if missing not in ("zero", "drop"):
            raise ValueError(f"missing must be 'zero' or 'drop', got {missing!r}")
        sets = [set(s.queries) for s in self.runs.values()]
        common = (set.union if missing == "zero" else set.intersection)(*sets) if sets else ()
        queries = tuple(sort_queries(common))
        column = {q: j for j, q in enumerate(queries)}
        scores = np.zeros((len(self.runs), len(queries)))
        for i, run in enumerate(self.runs.values()):
            for q, value in zip(run.queries, run.scores[m.label].tolist(), strict=True):
                if q in column:
                    scores[i, column[q]] = value
        return ScoreMatrix(m.label, tuple(self.runs), queries, scores)

    def rows(self, *, per_query: bool = False):
        """``(run, measure, query or 'all', value)`` in output order."""
        for run, scores in self.runs.items():
            if per_query:
                for j, q in enumerate(scores.queries):
                    for m in self.measures:
                        yield run, m, q, float(scores.scores[m.label][j])
            for m in self.measures:
                yield run, m, "all", self.mean(run, m)

    def to_trec(self, *, per_query: bool = False, digits: int | None = None) -> str:
        """trec_eval's layout: ``measure<TAB>query|all<TAB>value``, one block per run."""
        lines = []
        for run in self.runs:
            lines.append(f"{'runid':<22}\tall\t{run}")
            for r, m, q, value in self.rows(per_query=per_query):
                if r == run:
                    lines.append(f"{m.label:<22}\t{q}\t{_format(value, m, digits)}")
        return "\n".join(lines) + "\n"

    def to_csv(self, *, per_query: bool = True, digits: int | None = None) -> str:
        """Long-format CSV with columns ``run, measure, query, value`` (``all`` = aggregate)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["run", "measure", "query", "value"])
        for run, m, q, value in self.rows(per_query=per_query):
            writer.writerow([run, m.label, q, _format(value, m, digits)])
        return out.getvalue()

    def to_json(self, *, per_query: bool = True, digits: int | None = None) -> str:
        """``{"runs": {run: {"all": {measure: v}, "queries": {query: {measure: v}}}}}``."""
        data: dict = {"measures": list(self.labels), "runs": {}}
        for run, m, q, value in self.rows(per_query=per_query):
            entry = data["runs"].setdefault(run, {"all": {}, "queries": {}})
            target = entry["all"] if q == "all" else entry["queries"].setdefault(q, {})
            target[m.label] = _number(value, m, digits)
        if not per_query:
            for entry in data["runs"].values():
                entry.pop("queries")
        return json.dumps(data, indent=1)


def _number(value: float, measure: Measure, digits: int | None):
    if measure.summed or measure.family == "num_q":
        return round(value)
    return round(value, digits) if digits is not None else value


def _format(value: float, measure: Measure, digits: int | None) -> str:
    number = _number(value, measure, digits)
    if isinstance(number, int):
        return str(number)
    if digits is not None:
        return f"{number:.{digits}f}"
    return repr(float(number)) if math.isfinite(number) else str(number)


def _as_measures(measures) -> tuple[Measure, ...]:
    if isinstance(measures, str | Measure):
        measures = [measures]
    out: list[Measure] = []
    for item in measures:
        out.extend([item] if isinstance(item, Measure) else parse_measures(item))
    labels = [m.label for m in out]
    return tuple(m for i, m in enumerate(out) if m.label not in labels[:i])


def _as_runs(runs) -> dict[str, Run]:
    if isinstance(runs, Run):
        return {runs.name: runs}
    if isinstance(runs, Mapping):
        return {
            name: run if isinstance(run, Run) else Run.from_dict(run, name=name)
            for name, run in runs.items()
        }
    return {run.name: run for run in runs}


def _as_qrels(qrels) -> Qrels:
    if isinstance(qrels, Qrels):
        return qrels
    if isinstance(qrels, Mapping):
        return Qrels.from_dict(qrels)
    return read_qrels(qrels)


def evaluate(
    qrels: Qrels | Mapping | str,
    runs: Run | Mapping[str, Run] | Iterable[Run],
    measures: str | Measure | Iterable[str | Measure],
    *,
    complete: bool = False,
    judged_only: bool = False,
) -> Results:
    """Score runs against judgments on measures named like ``nDCG@10`` or ``P.5``.

    Parameters
    ----------
    qrels:
        :class:`~evaluation.core.trec.Qrels`, ``{query: {doc: relevance}}`` or a path.
    runs:
        A :class:`~evaluation.core.trec.Run`, ``{name: Run}`` (or
        ``{name: {query: {doc: score}}}``), or an iterable of runs.
    measures:
        Names (see :mod:`evaluation.core.names`) or parsed measures.
    complete:
        Score judged queries a run has no ranking for as 0 (trec_eval ``-c``) instead
        of leaving them out.
    judged_only:
        Drop the ranked documents without a (non-negative) judgment first
        (trec_eval ``-J``, :meth:`RankedJudgments.judged_only`).

    >>> qrels = Qrels.from_records([("q1", "a", 1), ("q1", "b", 0)])
    >>> run = Run.from_ranked_lists({"q1": ["b", "a"]}, name="sys")
    >>> evaluate(qrels, run, ["P@2", "RR@2"]).means()
    {'sys': {'P@2': 0.5, 'RR@2': 0.5}}
    """
    qrels = _as_qrels(qrels)
    parsed = _as_measures(measures)
    out = {}
    for name, run in _as_runs(runs).items():
        ranked = rank_judgments(qrels, run, complete=complete)
        out[name] = _scores(ranked.judged_only() if judged_only else ranked, parsed)
    return Results(parsed, out, complete)


def evaluate_files(
    qrels: Qrels | Mapping | str | Callable[[], Qrels],
    run_paths: Iterable[str],
    measures: str | Measure | Iterable[str | Measure],
    *,
    complete: bool = False,
    format: str = "auto",
    keep_order: bool | None = None,
    judged_only: bool = False,
) -> Results:
    """:func:`evaluate` on run files, read as :func:`~evaluation.core.trec.read_run_files` reads them.

    Big TREC run files are read and matched block by block
    (:func:`~evaluation.core.trec.stream.run_file_blocks`), so memory holds the
    judgments, one block of the run and the judgment row of each ranked document, not
    the whole run. The results are the same as
    ``evaluate(qrels, read_run_files(run_paths), measures)`` (with the same ``complete``
    and ``judged_only``), bit for bit, and so are
    the errors, except that a file without any ranking is a :class:`FormatError`.

    ``qrels`` may also be a function that reads the judgments: it is called on a thread
    of its own while the first run file starts being read, so that the two overlap.
    """
    parsed = _as_measures(measures)
    run_paths = list(run_paths)
    started = None
    if callable(qrels) and run_paths:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="judgments") as pool:
            reading = pool.submit(contextvars.copy_context().run, qrels)  # numpy's errstate
            started = _start_reading(run_paths[0], format, keep_order)
            try:
                qrels = reading.result()
            except BaseException:
                if started is not None:
                    started.close()  # stops the background reader
                raise
    qrels = qrels() if callable(qrels) else _as_qrels(qrels)
    ranked: dict[str, RankedJudgments] = {}  # every file read before any is scored, as
    for i, path in enumerate(run_paths):  # read_run_files + evaluate do: the same first error
        blocks = started if i == 0 else None
        for name, matched in _rank_file(qrels, path, format, keep_order, complete, blocks):
            ranked[name if name not in ranked else f"{name} ({path})"] = matched
    out = {}
    for name in list(ranked):
        matched = ranked.pop(name)
        matched = matched.judged_only() if judged_only else matched
        out[name] = _scores(matched, parsed)  # its matrices freed once scored
    return Results(parsed, out, complete)


def _start_reading(path, format, keep_order) -> Iterator[Run] | None:
    """The blocks of a run file, the first one read (the next ones being read meanwhile)."""
    blocks = run_file_blocks(path, format=format, keep_order=keep_order)
    if blocks is None:
        return None
    try:
        first = next(blocks)
    except (NotStreamable, StopIteration):
        return None
    return _chained(first, blocks)


def _chained(first: Run, blocks: Iterator[Run]) -> Iterator[Run]:
    try:
        yield first
        yield from blocks
    finally:
        blocks.close()


def _rank_file(qrels, path, format, keep_order, complete, blocks=None):
    """``(run name, RankedJudgments)`` of each run in a file, streamed when possible."""
    blocks = blocks or _start_reading(path, format, keep_order)
    if blocks is not None:
        try:
            first = next(blocks)
            ranked = rank_judgments_blocks(qrels, chain([first], blocks), complete=complete)
            return [(first.name, ranked)]
        except (NotStreamable, ValueError):
            blocks.close()  # read whole: the same run, or the error naming the line
    runs = read_runs(path, format=format, keep_order=keep_order)
    if not runs:
        raise FormatError(str(path), None, "no rankings found")
    return ((name, rank_judgments(qrels, run, complete=complete)) for name, run in runs.items())


_CELLS = 1 << 18  # ranks scored at a time: the measures' work arrays stay in cache


def _scores(ranked: RankedJudgments, measures: tuple[Measure, ...]) -> RunScores:
    """Per-query scores of a matched run, a few queries at a time (the same values).

    The measures that compute row by row get :meth:`RankedJudgments.rows` of about
    ``_CELLS`` ranks at a time, so their work arrays stay in cache; the others
    (:data:`~evaluation.core.measures.registry.WHOLE_MATRIX`) get the whole run.
    """
    n = len(ranked.queries)
    step = max(1, _CELLS // ranked.match.shape[1])
    by_rows = [m for m in measures if m.family not in WHOLE_MATRIX]
    pieces: dict[str, list[np.ndarray]] = {m.label: [] for m in by_rows}
    for start in range(0, max(n, 1), step):
        part = ranked if n <= step else ranked.rows(start, start + step)
        for m in by_rows:  # the part's matrices are shared by the measures, then freed
            pieces[m.label].append(_compute(m, part))
    scores = {label: np.concatenate(parts) for label, parts in pieces.items()}
    for m in measures:
        if m.family in WHOLE_MATRIX:
            scores[m.label] = _compute(m, ranked)
    return RunScores(ranked.queries, {m.label: scores[m.label] for m in measures})


def _compute(measure: Measure, ranked: RankedJudgments) -> np.ndarray:
    """:func:`compute`, whose errors (about the judgments' values) name the measure."""
    try:
        return compute(measure, ranked)
    except ValueError as error:
        message = str(error)
        if message.startswith(ranked.qrels.path):  # it names the judgments' file already
            raise
        raise ValueError(f"{measure.label}: {message}") from None
