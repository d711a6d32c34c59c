"""Compact letter display (Piepho 2004 insert-absorb) against its definition and
published examples."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.core import letters as letters_module
from evaluation.core.letters import compact_letters, letter_names, significant_pairs
from evaluation.core.results import leaderboard
from evaluation.core.scores import ScoreMatrix
from evaluation.core.stats import all_pairs


def letter_sets(letters: list[str]) -> list[set[str]]:
    """Each item's letters as a set (a name is a letter followed by its dots)."""
    out = []
    for text in letters:
        names, current = set(), ""
        for c in text:
            if c == ".":
                current += c
            else:
                if current:
                    names.add(current)
                current = c
        names.add(current)
        out.append(names)
    return out


def columns(letters: list[str]) -> set[frozenset[int]]:
    """Which items share each letter: the display's columns, independent of naming."""
    sets = letter_sets(letters)
    names = set().union(*sets)
    return {frozenset(i for i, s in enumerate(sets) if name in s) for name in names}


def test_multcompview_dif3_example():
    # multcompView's documented example (?multcompLetters):
    #   dif3 <- c(FALSE, FALSE, TRUE); names(dif3) <- c("A-B", "A-C", "B-C")
    #   multcompLetters(dif3)  ->  A "ab", B "a", C "b"
    significant = np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0]], dtype=bool)
    assert compact_letters(significant) == ["ab", "a", "b"]


def test_multcompview_dif4_example_by_hand():
    # multcompView's second example: p-values a-b .01, a-c .02, b-d .03, a-d 1, the pairs
    # not given (b-c, c-d) set to 1 by vec2mat; at α = 0.05 a-b, a-c and b-d differ.
    # Insert-absorb by hand (Piepho 2004, §3): {abcd} → a-b: {bcd},{acd} → a-c: {bcd},
    # {cd},{ad}, {cd} ⊂ {bcd} absorbed → b-d: {cd},{bc},{ad}. So a and d share one
    # letter, b and c one, c and d one: a "a", b "b", c "bc", d "ac" (named by first item).
    p = np.ones((4, 4))
    for (i, j), value in {(0, 1): 0.01, (0, 2): 0.02, (1, 3): 0.03, (0, 3): 1.0}.items():
        p[i, j] = p[j, i] = value
    letters = compact_letters(significant_pairs(p, alpha=0.05))
    assert columns(letters) == {frozenset({2, 3}), frozenset({1, 2}), frozenset({0, 3})}
    assert letters == ["a", "b", "bc", "ac"]


def test_nan_counts_as_not_significant_and_the_diagonal_never_does():
    p = np.array([[np.nan, np.nan, 0.01], [np.nan, np.nan, 0.5], [0.01, 0.5, np.nan]])
    assert significant_pairs(p, alpha=0.05).tolist() == [
        [False, False, True],
        [False, False, False],
        [True, False, False],
    ]
    with pytest.raises(ValueError, match="alpha"):
        significant_pairs(p, alpha=1.5)


def test_letters_are_not_contiguous_blocks_led_by_the_best_system():
    # Ranked A > B > C > D with A–B 0.20, A–C 0.01, A–D 0.001, B–C 0.90, B–D 0.02,
    # C–D 0.50 (unadjusted). Contiguous blocks compared with their leader put B and C in
    # different groups ([[A, B], [C, D]]) although B–C = 0.90. The letters: A–C, A–D and
    # B–D differ, so by insert-absorb {AB}, {BC}, {CD}: A "a", B "ab", C "bc", D "c".
    p = {(0, 1): 0.20, (0, 2): 0.01, (0, 3): 0.001, (1, 2): 0.90, (1, 3): 0.02, (2, 3): 0.50}
    res = comparison_with_pvalues(p, 4)
    assert res.letters(alpha=0.05, adjustment="none") == ["a", "ab", "bc", "c"]


def test_letters_use_the_adjusted_p_values():
    # Bonferroni over the 3 pairs multiplies by 3: A–B 0.02 → 0.06 ≥ 0.05, so A and B
    # share a letter only once adjusted.
    res = comparison_with_pvalues({(0, 1): 0.02, (0, 2): 0.001, (1, 2): 0.001}, 3)
    assert res.letters(alpha=0.05, adjustment="none") == ["a", "b", "c"]
    assert res.letters(alpha=0.05, adjustment="bonferroni") == ["a", "a", "b"]


def comparison_with_pvalues(p: dict[tuple[int, int], float], k: int):
    """An all-pairs result whose (symmetric) p-values are set by hand."""
    res = all_pairs(np.random.default_rng(0).random((k, 5)), test="t")
    pvalue = np.full((k, k), np.nan)
    for (i, j), value in p.items():
        pvalue[i, j] = pvalue[j, i] = value
    return dataclasses.replace(res, pvalue=pvalue)


def test_letter_names_go_on_past_the_alphabet():
    names = letter_names(60)
    # multcompView's makeLtrs(kl, c(letters, LETTERS, ".")): 52 letters, then
    # paste(".", letters) — ".a", ".b", … — then "..a", …
    assert names[:2] == ["a", "b"] and names[26] == "A" and names[52:54] == [".a", ".b"]
    assert letter_names(105)[104] == "..a"
    assert len(set(names)) == 60


@st.composite
def pvalue_matrices(draw):
    k = draw(st.integers(1, 12))
    values = st.one_of(st.floats(0, 1), st.just(float("nan")), st.sampled_from([0.05, 0.0]))
    upper = draw(st.lists(values, min_size=k * (k - 1) // 2, max_size=k * (k - 1) // 2))
    p = np.full((k, k), np.nan)
    iu = np.triu_indices(k, 1)
    p[iu] = upper
    p[iu[1], iu[0]] = upper
    return p


@settings(max_examples=300, deadline=None)
@given(pvalue_matrices(), st.sampled_from([0.01, 0.05, 0.1]))
def test_two_items_share_a_letter_exactly_when_their_p_value_is_not_significant(p, alpha):
    letters = compact_letters(significant_pairs(p, alpha=alpha))
    sets = letter_sets(letters)
    k = len(p)
    assert all(sets[i] for i in range(k))  # every item has a letter
    for i in range(k):
        for j in range(i + 1, k):
            not_significant = np.isnan(p[i, j]) or p[i, j] >= alpha
            assert bool(sets[i] & sets[j]) == not_significant, (i, j, p[i, j], letters)
    # insert-absorb leaves no column inside another (Piepho 2004, the absorb step)
    cols = columns(letters)
    assert not any(a < b for a in cols for b in cols)


def test_a_display_too_tangled_to_read_is_refused_quickly_and_the_leaderboard_says_so(
    monkeypatch,
):
    # Half the pairs of 60 items significant at random: more than MAX_LETTER_COLUMNS
    # maximal sets of items not significantly different; the work stops there.
    rng = np.random.default_rng(0)
    significant = np.triu(rng.random((60, 60)) < 0.5, 1)
    with pytest.raises(ValueError, match="more than 500 letters"):
        compact_letters(significant | significant.T)
    # A leaderboard whose letters are refused keeps its rows, without letters.
    monkeypatch.setattr(letters_module, "MAX_LETTER_COLUMNS", 1)
    X = np.array([[0.9, 0.8, 0.9, 0.7, 0.8, 0.9], [0.5] * 6, [0.1, 0.2, 0.1, 0.2, 0.1, 0.2]])
    board = leaderboard(ScoreMatrix("P@5", ("A", "B", "C"), tuple("123456"), X)).to_dict()
    assert [row["letters"] for row in board["rows"]] == [None, None, None]
    assert [w["code"] for w in board["warnings"]] == ["letters_unavailable"]


def test_mirex_2011_bootstrap_holm_letters_mean_what_the_p_values_say(mirex2011_cg_l5_fine):
    # The issue's case: CG_l@5 Fine, bootstrap test (seed 20130701, the pages' default),
    # Holm. The contiguous groups this replaced put 4 of the 153 pairs in different groups
    # although their adjusted p >= 0.05 (recomputed with the old rule before removing it:
    # ccaba5–1255ef 0.152, 5177f0–1255ef 0.148, 2b08eb–1255ef 0.688, 2b08eb–4954a8
    # 0.053); the letters agree with every pair, those four included.
    systems, queries, X = mirex2011_cg_l5_fine
    order = np.argsort(-X.mean(axis=1), kind="stable")
    ranked = ScoreMatrix("CG_l@5", tuple(systems[i] for i in order), tuple(queries), X[order])
    res = all_pairs(ranked, test="bootstrap", resamples=10_000, seed=20130701)
    adjusted = res.adjusted_pvalues("holm")
    sets = letter_sets(res.letters(alpha=0.05, adjustment="holm"))
    k = len(systems)
    for i in range(k):
        for j in range(i + 1, k):
            assert bool(sets[i] & sets[j]) == (adjusted[i, j] >= 0.05), (i, j)
    for a, b in [("ccaba5", "1255ef"), ("5177f0", "1255ef"), ("2b08eb", "1255ef"),
                 ("2b08eb", "4954a8")]:  # fmt: skip
        i, j = ranked.systems.index(a), ranked.systems.index(b)
        assert adjusted[i, j] >= 0.05 and sets[i] & sets[j], (a, b)
