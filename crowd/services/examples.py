"""Examples of a crowd campaign: from two systems' runs, from a CSV file, from the generator.

An example is a query and two ranked lists a and b of ``list_length`` clips
(thesis §3.2). The same comparison is stored once whichever list is called a, since
sides are randomised when a task is shown. The §3.2.1 generator's search is
:func:`evaluation.core.example_generator.generate_examples`; :func:`examples_generate`
feeds it the campaign's Fine judgments and stores what it finds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import BinaryIO

from django.core.exceptions import ValidationError
from django.db import transaction

from catalog.models import Clip, Query, RunEntry, System
from common.files.csvfile import csv_header, csv_records
from common.files.errors import ImportFailed
from common.files.inputs import check_has_data_lines
from common.planner_statistics import planner_statistics_refresh
from common.validation import check_text, shown
from crowd.explanations import explanation_turned
from crowd.models import (
    CHOICE_LABELS,
    Example,
    ExampleItem,
    PreferenceCampaign,
    TrapQuestion,
    choice_as_stored,
)
from crowd.selectors.generator import generator_judgments
from crowd.services.traps import trap_question_mark
from evaluation.core.example_generator import GeneratorReport, generate_examples


def example_signature(query: Query, list_a: Sequence[Clip], list_b: Sequence[Clip]) -> str:
    """The same comparison whichever list is called a: sides are randomised when shown."""
    return signature_of_ids(query.pk, [c.pk for c in list_a], [c.pk for c in list_b])


def signature_of_ids(query_id: int, list_a: Sequence[int], list_b: Sequence[int]) -> str:
    """:func:`example_signature` from the ids of the query and the clips."""
    a, b = (",".join(str(pk) for pk in ids) for ids in (list_a, list_b))
    return f"{query_id}|{'|'.join(sorted([a, b]))}"


def _example_check(campaign, query, list_a, list_b, *, allow_identical: bool = False) -> None:
    k = campaign.list_length
    for side, clips in (("a", list_a), ("b", list_b)):
        if len(clips) != k:
            raise ValidationError(f"list {side} has {len(clips)} clips, the campaign needs {k}")
        if len({c.pk for c in clips}) != k:
            raise ValidationError(f"list {side} repeats a clip")
        if any(c.collection_id != campaign.collection_id for c in clips):
            raise ValidationError(f"list {side} has a clip of another collection")
    if query.collection_id != campaign.collection_id:
        raise ValidationError("the query belongs to another collection")
    if not allow_identical and [c.pk for c in list_a] == [c.pk for c in list_b]:
        raise ValidationError("the two lists are identical")


ANALYZE_AFTER_ITEMS = 1000
"""Creating this many list items at once refreshes the planner's statistics."""


def examples_create(
    *,
    campaign: PreferenceCampaign,
    examples: Iterable[dict],
    source: str,
    allow_identical: bool = False,
) -> list[Example]:
    """Create examples from dicts with ``query``, ``list_a``, ``list_b`` (clips, in rank
    order) and optionally ``system_a``, ``system_b``, ``scores``. Examples the campaign
    already has (in either side order) are skipped; the new ones are returned.

    Two identical lists are refused unless ``allow_identical`` (answers imported from a
    study that showed them, :mod:`pastanswers.importers.answers`)."""
    with transaction.atomic():
        known = set(campaign.examples.values_list("signature", flat=True))
        new: list[Example] = []
        lists: list[tuple[Sequence[Clip], Sequence[Clip]]] = []
        for spec in examples:
            query, list_a, list_b = spec["query"], list(spec["list_a"]), list(spec["list_b"])
            _example_check(campaign, query, list_a, list_b, allow_identical=allow_identical)
            signature = example_signature(query, list_a, list_b)
            if signature in known:
                continue
            known.add(signature)
            new.append(
                Example(
                    campaign=campaign, query=query, source=source, signature=signature,
                    system_a=spec.get("system_a"), system_b=spec.get("system_b"),
                    scores=spec.get("scores") or {},
                )
            )  # fmt: skip
            lists.append((list_a, list_b))
        Example.objects.bulk_create(new, batch_size=500)
        items = [
            ExampleItem(example=example, side=side, rank=rank, clip=clip)
            for example, (list_a, list_b) in zip(new, lists, strict=True)
            for side, clips in (("a", list_a), ("b", list_b))
            for rank, clip in enumerate(clips, start=1)
        ]
        ExampleItem.objects.bulk_create(items, batch_size=1000)
        if len(items) >= ANALYZE_AFTER_ITEMS:
            # Planned on the statistics of an empty table, every task page read its
            # lists with a scan of all the collection's clips (3–6 ms instead of 0.1).
            planner_statistics_refresh(Example, ExampleItem)
    return new


def examples_from_systems(
    *, campaign: PreferenceCampaign, system_a: System, system_b: System
) -> list[Example]:
    """One example per query where both systems ranked at least k clips, lists differing."""
    k = campaign.list_length
    tops: dict[tuple[int, int], list[Clip]] = {}
    entries = (
        RunEntry.objects.filter(system__in=[system_a, system_b], rank__lte=k)
        .select_related("clip")
        .order_by("system_id", "query_id", "rank")
    )
    for entry in entries:
        tops.setdefault((entry.system_id, entry.query_id), []).append(entry.clip)
    queries = {q.pk: q for q in campaign.collection.queries.all()}
    specs = []
    for query_id, query in sorted(queries.items()):
        list_a = tops.get((system_a.pk, query_id), [])
        list_b = tops.get((system_b.pk, query_id), [])
        if len(list_a) == len(list_b) == k and [c.pk for c in list_a] != [c.pk for c in list_b]:
            specs.append(
                {"query": query, "list_a": list_a, "list_b": list_b,
                 "system_a": system_a, "system_b": system_b}
            )  # fmt: skip
    return examples_create(campaign=campaign, examples=specs, source=Example.SOURCE_SYSTEMS)


CSV_COLUMNS = ("query", "list_a", "list_b")

CSV_OPTIONAL = ("accepted_answers", "explanation", "pool")


def examples_import_csv(
    *, campaign: PreferenceCampaign, text: str | bytes | BinaryIO
) -> list[Example]:
    """Import examples (and trap questions) from CSV; see ``docs/preference-examples-csv.md``.

    ``text`` is the file's text or a stream of it (an upload is read a record at a
    time, :mod:`common.files.csvfile`). All or nothing: the first bad line stops
    the import with its line number.
    """
    clips = {c.external_id: c for c in campaign.collection.clips.all()}
    queries = {q.clip.external_id: q for q in campaign.collection.queries.select_related("clip")}
    line, data_lines = 1, 0
    try:
        with transaction.atomic():
            created: list[Example] = []
            records = csv_records(text, path="examples.csv")
            header = [h.strip() for h in csv_header(records, path="examples.csv")[1]]
            missing = [c for c in CSV_COLUMNS if c not in header]
            if missing:
                raise ValidationError(f"missing column(s) {', '.join(missing)}")
            for line, cells in records:  # noqa: B007 - the error names the line
                if not any(cell.strip() for cell in cells):
                    continue
                if len(cells) > len(header):
                    raise ValidationError("more fields than columns")
                row = {k: v.strip() for k, v in zip(header, cells, strict=False)}
                row.update((k, "") for k in header[len(cells) :])
                query = queries.get(row["query"])
                if query is None:
                    raise ValidationError(f"unknown query {shown(row['query'])}")
                lists = []
                for column in ("list_a", "list_b"):
                    ids = row[column].split()
                    unknown = [i for i in ids if i not in clips]
                    if unknown:
                        raise ValidationError(f"{column}: unknown clip {shown(unknown[0])}")
                    lists.append([clips[i] for i in ids])
                spec = {"query": query, "list_a": lists[0], "list_b": lists[1]}
                new = examples_create(campaign=campaign, examples=[spec], source=Example.SOURCE_CSV)
                accepted = row.get("accepted_answers", "").replace("|", " ").split()
                if accepted:
                    example, turned = (new[0], False) if new else _example_for(campaign, spec)
                    explanation = check_text(
                        row.get("explanation", ""), what="explanation", kind="text",
                        required=False,
                    )  # fmt: skip
                    if turned:  # stored with list_b as list a: the row's words turned round
                        accepted = [
                            choice_as_stored(a, swapped=True) if a in CHOICE_LABELS else a
                            for a in accepted
                        ]
                        explanation = explanation_turned(explanation)
                    trap_question_mark(
                        example=example, accepted_answers=accepted, explanation=explanation,
                        pool=row.get("pool") or TrapQuestion.WORK,
                    )  # fmt: skip
                created.extend(new)
                data_lines += 1
            check_has_data_lines(Path("examples.csv"), data_lines)
    except ImportFailed as error:
        if error.line is None:
            raise ValidationError(str(error)) from None
        raise ValidationError(f"line {error.line}: {error.message}") from None
    except ValidationError as error:
        raise ValidationError(f"line {line}: {'; '.join(error.messages)}") from error
    return created


def _example_for(campaign, spec) -> tuple[Example, bool]:
    """The campaign's example with the lists of ``spec`` in either order, and whether it
    stores them the other way round (``spec``'s list_b as its list a)."""
    example = campaign.examples.get(
        signature=example_signature(spec["query"], spec["list_a"], spec["list_b"])
    )
    list_a = list(example.items.filter(side="a").order_by("rank").values_list("clip_id", flat=True))
    return example, list_a != [c.pk for c in spec["list_a"]]


def examples_generate(
    *,
    campaign: PreferenceCampaign,
    measures: Sequence[str],
    per_bin: int = 200,
    seed: int = 0,
    max_examples: int | None = None,
    bins: Sequence[int] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> GeneratorReport:
    """Run the §3.2.1 generator on the campaign's collection's Fine judgments and add the
    examples to the campaign (each with its λ per measure in ``Example.scores``).

    Several judgments of one pair are averaged. ``bins`` and ``progress`` go to
    :func:`~evaluation.core.example_generator.generate_examples`.
    """
    judgments, queries = generator_judgments(campaign=campaign)
    report = generate_examples(
        judgments, measures, k=campaign.list_length, per_bin=per_bin, seed=seed,
        max_examples=max_examples, bins=bins, progress=progress,
    )  # fmt: skip
    clips = {c.pk: c for c in campaign.collection.clips.all()}
    specs = [
        {
            "query": queries[int(e.query)],
            "list_a": [clips[int(c)] for c in e.list_a],
            "list_b": [clips[int(c)] for c in e.list_b],
            "scores": {m: list(v) for m, v in e.scores.items()},
        }
        for e in report.examples
    ]
    examples_create(campaign=campaign, examples=specs, source=Example.SOURCE_GENERATOR)
    return report
