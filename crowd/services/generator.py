"""The §3.2.1 example generator as a background job: check the choice, start it, run it.

The search is :func:`evaluation.core.example_generator.generate_examples`; storing its
examples is :func:`crowd.services.examples.examples_generate`. This module
turns what an organiser chose (measure families, scales, gain, bins) into measure
names, refuses what cannot work with a message saying why, and runs the generator as
a :class:`~work.models.Job` of kind ``generate_examples`` whose progress is the
share of (measure, scale, bin) combinations filled (or given up on).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError

from crowd.models import PreferenceCampaign
from crowd.services.examples import examples_generate, generator_judgments
from evaluation.core.example_generator import N_BINS, bin_label, user_measure
from evaluation.core.names import FAMILIES, MeasureNameError
from work.jobs import JobFailed, job_start
from work.models import Job
from work.progress import Report

KIND = "generate_examples"

FAMILY_CHOICES = ("CG", "DCG", "RBP", "ERR", "EDCG", "Q", "GAP", "ADR")
"""Graded user-oriented measures offered as checkboxes (thesis §3.1); others by name."""
SCALE_CHOICES = ("fine", "graded3", "graded4", "graded5")
"""The scales a list of Fine judgments can be read on (thesis §3.1.2)."""

MAX_MEASURES = 12
MAX_PER_BIN = 1000
MAX_EXAMPLES = 100_000


def generator_measure_names(
    *, families: Sequence[str], scales: Sequence[str], gain: str, k: int, others: Sequence[str]
) -> list[str]:
    """Measure names for each family × scale (``form=user``, the gain chosen) and the others.

    Names are canonical and unique; a name the generator cannot use is a
    :class:`ValidationError` naming it and saying why.
    """
    names = []
    for family in families:
        if family not in FAMILY_CHOICES:
            raise ValidationError(f"{family!r} is not a measure the generator offers.")
        for scale in scales:
            if scale not in SCALE_CHOICES:
                raise ValidationError(f"{scale!r} is not a scale of Fine judgments.")
            options = {"scale": scale}
            if "form" in FAMILIES[family].options:
                options["form"] = "user"
            if gain == "exp" and "gain" in FAMILIES[family].options:
                options["gain"] = "exp"
            text = ",".join(f"{key}={value}" for key, value in sorted(options.items()))
            names.append(f"{family}({text})@{k}")
    names += [name.strip() for name in others if name.strip()]
    labels = []
    for name in names:
        try:
            measure = user_measure(name)
        except (MeasureNameError, ValueError) as error:
            raise ValidationError(str(error)) from None
        if measure.k != k:
            raise ValidationError(f"{name}: the campaign's lists have {k} clips; use @{k}.")
        labels.append(measure.label)
    labels = list(dict.fromkeys(labels))
    if not labels:
        raise ValidationError("Choose at least one measure and one scale.")
    if len(labels) > MAX_MEASURES:
        raise ValidationError(f"{len(labels)} measures chosen; at most {MAX_MEASURES} at once.")
    return labels


def _check_options(*, bins: Sequence[int], per_bin: int, max_examples: int | None) -> None:
    if not bins:
        raise ValidationError("Choose at least one |Δλ| bin.")
    if any(not 0 <= b < N_BINS for b in bins):
        raise ValidationError(f"Bins are numbered 0 to {N_BINS - 1}.")
    if not 1 <= per_bin <= MAX_PER_BIN:
        raise ValidationError(f"Examples per bin must be between 1 and {MAX_PER_BIN}.")
    if max_examples is not None and not 1 <= max_examples <= MAX_EXAMPLES:
        raise ValidationError(f"The cap on examples must be between 1 and {MAX_EXAMPLES:,}.")


def generator_start(
    *,
    campaign: PreferenceCampaign,
    owner,
    measures: Sequence[str],
    bins: Sequence[int],
    per_bin: int,
    seed: int = 0,
    max_examples: int | None = None,
) -> Job:
    """Check the choice and start the generator on the campaign as a background job.

    While one runs on the campaign, starting again returns it.
    """
    _check_options(bins=bins, per_bin=per_bin, max_examples=max_examples)
    for name in measures:
        try:
            user_measure(name)
        except ValueError as error:
            raise ValidationError(str(error)) from None
    judgments, _ = generator_judgments(campaign=campaign)
    k = campaign.list_length
    if not any(len(docs) >= k for docs in judgments.values()):
        raise ValidationError(
            f"No query of “{campaign.collection}” has {k} clips judged on the Fine scale, so "
            "no list can be built: import judgments or run a relevance campaign first."
        )
    params = {
        "campaign": campaign.pk,
        "measures": list(measures),
        "bins": sorted(set(bins)),
        "per_bin": per_bin,
        "seed": seed,
        "max_examples": max_examples,
    }
    return job_start(
        kind=KIND, owner=owner, collection=campaign.collection, key=f"campaign:{campaign.pk}",
        params=params,
    )  # fmt: skip


def generator_run(*, job: Job, report: Report) -> dict:
    """The job's runner: generate, store, and say what each combination got."""
    params = job.params
    campaign = PreferenceCampaign.objects.filter(pk=params["campaign"]).first()
    if campaign is None:
        raise JobFailed("The campaign was deleted before the generator could run.")
    before = campaign.examples.count()
    generated = examples_generate(
        campaign=campaign, measures=params["measures"], per_bin=params["per_bin"],
        seed=params["seed"], max_examples=params["max_examples"], bins=params["bins"],
        progress=report,
    )  # fmt: skip
    ignored = set(generated.ignored)
    return {
        "campaign": campaign.pk,
        "measures": list(generated.measures),
        "bins": list(generated.bins),
        "per_bin": generated.per_bin,
        "found": len(generated.examples),
        "added": campaign.examples.count() - before,
        "cells": [
            {
                "measure": m,
                "counts": [generated.counts[(m, b)] for b in range(N_BINS)],
                "ignored": [b for b in range(N_BINS) if (m, b) in ignored],
            }
            for m in generated.measures
        ],
        "unfilled": [
            {"measure": m, "bin": b, "label": bin_label(b), "examples": n}
            for m, b, n in generated.unfilled
        ],
    }
