"""The split-half study's findings in plain sentences (thesis §5.3–5.6).

:func:`verdicts` reads the rates of an optimality document
(:meth:`evaluation.core.optimality.OptimalityResult.to_dict`) at one significance level
and says which test and which measure were the most powerful (fewest non-significant
comparisons), the safest (fewest conflicts) and the most exact (conflicts closest to α),
by the criteria of §5.3, comparing the most powerful test with the one the results use.
The results pages and the command line print the same sentences.
"""

from __future__ import annotations

__all__ = ["TEST_NAMES", "verdicts"]

TEST_NAMES = {
    "t": "t-test",
    "wilcoxon": "Wilcoxon test",
    "sign": "sign test",
    "bootstrap": "bootstrap test",
    "permutation": "permutation test",
}
"""How the sentences name each test."""


def _percent(x: float) -> str:
    return f"{100 * x:.1f} %" if x >= 0.001 or x == 0 else f"{100 * x:.2g} %"


def _at(group: dict, rate: str, i: int) -> float | None:
    return group["rates"][rate][i]


def closest_alpha(alphas: list[float], alpha: float) -> int:
    """The index of the level of ``alphas`` nearest ``alpha``."""
    return min(range(len(alphas)), key=lambda i: abs(alphas[i] - alpha))


def verdicts(document: dict, *, alpha: float, baseline: str) -> dict:
    """``{alpha, baseline, tests: [sentence…], measures: [sentence…], practical}``.

    >>> doc = {"alphas": [0.05], "by_measure": [], "by_test": [
    ...   {"test": "t", "rates": {"non_significance": [0.5], "global_conflict": [0.010]}},
    ...   {"test": "bootstrap", "rates": {"non_significance": [0.44],
    ...                                   "global_conflict": [0.009]}}]}
    >>> verdicts(doc, alpha=0.05, baseline="t")["tests"][0]
    'On this collection the bootstrap test found 12 % more significant pairs than the t-test (56.0 % of all pairs against 50.0 %) with no more conflicts (0.9 % of its significant pairs against 1.0 %).'
    """
    alphas = document["alphas"]
    i = closest_alpha(alphas, alpha)
    level = alphas[i]
    tests = [g for g in document["by_test"] if _at(g, "non_significance", i) is not None]
    out = {"alpha": level, "baseline": baseline, "tests": [], "measures": []}
    if tests:
        out["tests"] = _test_sentences(tests, i, level, baseline)
    measures = [g for g in document["by_measure"] if _at(g, "non_significance", i) is not None]
    if len(measures) > 1:
        out["measures"] = _measure_sentences(measures, i)
    out["practical"] = (
        "A significant difference only says that it is unlikely to be chance, not that it is "
        "large enough for users to notice: read each pair's difference and its interval too "
        "(thesis §5.6)."
    )
    return out


def _significant(group: dict, i: int) -> float:
    return 1.0 - _at(group, "non_significance", i)


def _conflicts(group: dict, i: int) -> float:
    c = _at(group, "global_conflict", i)
    return 0.0 if c is None else c


def _test_sentences(tests: list[dict], i: int, level: float, baseline: str) -> list[str]:
    name = {g["test"]: TEST_NAMES.get(g["test"], g["test"]) for g in tests}
    strongest = max(tests, key=lambda g: (_significant(g, i), -_conflicts(g, i)))
    base = next((g for g in tests if g["test"] == baseline), tests[0])
    sentences = []
    s_top, s_base = _significant(strongest, i), _significant(base, i)
    if strongest is base or s_top == s_base:
        sentences.append(
            f"On this collection the {name[base['test']]}, which the results use, found the most "
            f"significant pairs ({_percent(s_base)} of all pairs at α = {level:g})."
        )
    else:
        more = f"{100 * (s_top / s_base - 1):.0f} % more" if s_base > 0 else "more"
        c_top, c_base = _conflicts(strongest, i), _conflicts(base, i)
        how = "no more" if c_top <= c_base else "more"
        sentences.append(
            f"On this collection the {name[strongest['test']]} found {more} significant pairs "
            f"than the {name[base['test']]} ({_percent(s_top)} of all pairs against "
            f"{_percent(s_base)}) with {how} conflicts ({_percent(c_top)} of its significant "
            f"pairs against {_percent(c_base)})."
        )
    safest = min(tests, key=lambda g: (_conflicts(g, i), -_significant(g, i)))
    sentences.append(
        f"The {name[safest['test']]} was the safest: the other half of the queries contradicted "
        f"{_percent(_conflicts(safest, i))} of its significant pairs."
    )
    worst = max(_conflicts(g, i) for g in tests)
    if worst < level:
        sentences.append(
            f"Every test's conflicts stayed below α = {level:g} (at most {_percent(worst)}): "
            "here the tests are more cautious than α says, as the thesis found (§5.5)."
        )
    else:
        exact = min(tests, key=lambda g: abs(_conflicts(g, i) - level))
        sentences.append(
            f"The {name[exact['test']]}'s conflicts came closest to α = {level:g} "
            f"({_percent(_conflicts(exact, i))}): it is the most exact here."
        )
    return sentences


def _measure_sentences(measures: list[dict], i: int) -> list[str]:
    strongest = max(measures, key=lambda g: (_significant(g, i), -_conflicts(g, i)))
    weakest = min(measures, key=lambda g: (_significant(g, i), _conflicts(g, i)))
    s_top, s_low = _significant(strongest, i), _significant(weakest, i)
    sentences = []
    if s_top > s_low:
        more = f"{100 * (s_top / s_low - 1):.0f} % more" if s_low > 0 else "more"
        sentences.append(
            f"{strongest['measure']} found the most significant pairs ({_percent(s_top)} of all "
            f"pairs), {more} than {weakest['measure']} ({_percent(s_low)})."
        )
    else:
        sentences.append(f"Every measure found as many significant pairs ({_percent(s_top)}).")
    safest = min(measures, key=lambda g: (_conflicts(g, i), -_significant(g, i)))
    sentences.append(
        f"{safest['measure']} had the fewest conflicts ({_percent(_conflicts(safest, i))} of "
        "its significant pairs)."
    )
    return sentences
