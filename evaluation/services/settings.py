"""Changing how results are computed: a collection's ``ResultsConfig``, a campaign's ``MappingConfig``.

Every value is checked first, with a message that says what is wrong and what to do;
nothing is written when one is wrong. Saving asks for **one** coalesced recompute
(:mod:`evaluation.services.recompute`) after the transaction commits: of the
collection's leaderboards and reliability studies, or of the campaign's mapping (which
then recomputes its collection's leaderboards, since they use it).

What the thesis says about the choices: the bootstrap test is the default (§5.7,
§9.1.2); p-values of a resampling test move in steps of 1/T for T resamples (eqs. 5.4,
5.5), hence :func:`results_settings_notes`; Eρ² and Φ lie in [0, 1] (ch. 6), so the
reliability target must too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from catalog.published import Collection, RelevanceJudgment
from crowd.published import PreferenceCampaign
from evaluation import selectors_groups
from evaluation.core.names import MeasureNameError, parse_measure
from evaluation.core.significance import RESAMPLING_TESTS
from evaluation.models import MappingConfig, ResultsConfig
from evaluation.services.leaderboards import GROUPS_SCALE
from evaluation.services.mappings import campaign_mapping_request
from evaluation.services.results import collection_results_request

RESULTS_SETTINGS = ("measures", "test", "adjustment", "resamples", "seed", "alpha",
                    "reliability_target", "judged_only")  # fmt: skip
"""What the results settings page and API change (one line per new setting)."""

MAX_MEASURES = 20
MIN_RESAMPLES, MAX_RESAMPLES = 1_000, 1_000_000
BROAD_SCALES = ("broad",)
FINE_SCALES = ("fine", "graded3", "graded4", "graded5")


def measures_check(names: Sequence[str], *, collection: Collection, what: str) -> list[str]:
    """Canonical labels of ``names``, or a :class:`ValidationError` naming the bad one.

    Each must parse, have a cut-off, be a mean over queries (not a trec_eval count),
    appear once, and use a scale the collection has judgments on; measures on the scale
    ``groups`` need official ordered groups, and ``ADR(scale=groups)`` needs no cut-off
    (it runs over each query's ground truth, Typke et al. 2006, §3).
    """
    labels: dict[tuple, str] = {}
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        try:
            measure = parse_measure(name)
        except MeasureNameError as error:
            raise ValidationError(f"{name}: {error}") from None
        if measure.summed:
            raise ValidationError(
                f"{name} is a count summed over queries, not an effectiveness measure."
            )
        on_groups = measure.option("scale") == GROUPS_SCALE
        if on_groups and not selectors_groups.collection_has_official_groups(collection=collection):
            raise ValidationError(
                f"{name}: “{collection}” has no official ordered groups (upload a groups file "
                "first, or count a source of groups in results)."
            )
        if measure.k is None and not (on_groups and measure.family == "ADR"):
            raise ValidationError(
                f"{name}: give a cut-off, e.g. {name}@5 (the thesis evaluates top 5 lists)."
            )
        if measure.key in labels:
            raise ValidationError(f"{name} is the same measure as {labels[measure.key]}: keep one.")
        scale = measure.option("scale")
        if scale in BROAD_SCALES and not _judged(collection, "broad"):
            raise ValidationError(
                f"{name}: “{collection}” has no Broad judgments, so every system would score 0."
            )
        if scale in FINE_SCALES and not _judged(collection, "fine"):
            raise ValidationError(
                f"{name}: “{collection}” has no Fine judgments, so every system would score 0."
            )
        labels[measure.key] = measure.label
    if len(labels) > MAX_MEASURES:
        raise ValidationError(f"{len(labels)} {what}; at most {MAX_MEASURES}.")
    return list(labels.values())


def _judged(collection: Collection, scale: str) -> bool:
    return RelevanceJudgment.objects.filter(
        query__collection=collection, **{f"{scale}__isnull": False}
    ).exists()


def results_settings_errors(values: dict) -> dict[str, str]:
    """What is wrong with the values other than the measures: ``{field: message}``."""
    errors: dict[str, str] = {}
    if values["test"] not in dict(ResultsConfig.TESTS):
        errors["test"] = f"The test is one of {', '.join(dict(ResultsConfig.TESTS))}."
    if values["adjustment"] not in dict(ResultsConfig.ADJUSTMENTS):
        errors["adjustment"] = "The adjustment is holm, bonferroni or none."
    resamples = values["resamples"]
    if values["test"] in RESAMPLING_TESTS and not MIN_RESAMPLES <= resamples <= MAX_RESAMPLES:
        errors["resamples"] = (
            f"The {values['test']} test needs between {MIN_RESAMPLES:,} and "
            f"{MAX_RESAMPLES:,} resamples: its p-values move in steps of 1/resamples "
            "(thesis eqs. 5.4–5.5), and more than a million only makes the recompute slow."
        )
    elif resamples < 1:
        errors["resamples"] = "At least 1 (it is not used by this test)."
    alpha = values["alpha"]
    if not (isinstance(alpha, int | float) and 0 < alpha < 0.5):
        errors["alpha"] = (
            "α is the chance of a false difference you accept: between 0 and 0.5 (0.05 is usual)."
        )
    target = values["reliability_target"]
    if not (isinstance(target, int | float) and 0 < target < 1):
        errors["reliability_target"] = (
            "Eρ² and Φ lie between 0 and 1 and reach 1 only with infinitely many queries: "
            "give a target above 0 and below 1 (0.95 is usual)."
        )
    if values["seed"] < 0:
        errors["seed"] = "The seed is a whole number from 0."
    return errors


def results_config_update(*, collection: Collection, changes: dict) -> list[str]:
    """Save the collection's results settings and ask for one recompute; returns what changed."""
    unknown = sorted(set(changes) - set(RESULTS_SETTINGS))
    if unknown:
        raise ValidationError(f"These settings cannot be changed: {', '.join(unknown)}.")
    config = ResultsConfig.for_collection(collection)
    values = {field: getattr(config, field) for field in RESULTS_SETTINGS}
    values.update(changes)
    errors = results_settings_errors(values)
    if "measures" in changes:
        try:
            values["measures"] = measures_check(
                changes["measures"], collection=collection, what="measures"
            )
        except ValidationError as error:
            errors["measures"] = " ".join(error.messages)
    if errors:
        raise ValidationError(errors)
    changed = [f for f in RESULTS_SETTINGS if getattr(config, f) != values[f]]
    if not changed:
        return []
    with transaction.atomic():
        for field in changed:
            setattr(config, field, values[field])
        config.save()
        collection_results_request(collection=collection)
    return changed


def mapping_config_update(
    *,
    campaign: PreferenceCampaign,
    measures: Sequence[str] | None = None,
    full_listening_only: bool | None = None,
) -> bool:
    """Save the measures of the campaign's mapping, and whether it uses only the answers
    whose every clip was heard; ask for one recompute of it. ``None`` leaves a setting as
    it is.

    Returns whether anything changed (nothing is recomputed otherwise).
    """
    config = MappingConfig.for_campaign(campaign)
    labels = (
        config.measures
        if measures is None
        else measures_check(measures, collection=campaign.collection, what="mapping measures")
    )
    only = config.full_listening_only if full_listening_only is None else bool(full_listening_only)
    unchanged = config.measures == labels and config.full_listening_only == only
    if unchanged and (config.pk or measures is None):
        return False
    with transaction.atomic():
        config.measures, config.full_listening_only = labels, only
        config.save()
        campaign_mapping_request(campaign=campaign)
    return True


def results_settings_notes(*, config: ResultsConfig, n_systems: int) -> list[str]:
    """Things worth knowing about valid settings (not errors): the resolution of p-values."""
    notes = []
    pairs = n_systems * (n_systems - 1) // 2
    if config.test in RESAMPLING_TESTS and pairs and config.adjustment != "none":
        smallest = config.alpha / pairs  # Holm's first step and Bonferroni's threshold
        if 1 / config.resamples > smallest:
            needed = math.ceil(pairs / config.alpha)
            notes.append(
                f"With {n_systems} systems there are {pairs} pairs, and the smallest "
                f"{config.adjustment} threshold is α/{pairs} = {smallest:.2g}, finer than the "
                f"p-values of {config.resamples:,} resamples move (1/{config.resamples:,}): "
                f"a pair is then only significant if no resample was as extreme. "
                f"{needed:,} resamples or more resolve it."
            )
    elif config.test not in RESAMPLING_TESTS:
        notes.append(
            f"The {config.test} test does not resample: the number of resamples is not used."
        )
    return notes
