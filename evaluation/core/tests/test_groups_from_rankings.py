"""Ordered groups from experts' rankings: Typke et al. 2005's rule and Urbano et al.
2010's alternatives, on Typke's worked example and a hand-made study of 31 experts."""

import pytest

from evaluation.core.ordered_groups import groups_from_ranks, read_rankings
from evaluation.core.tests.file_errors import read_error


def ranks_of(orders: list[tuple[str, int]]) -> dict[str, list[int]]:
    """Each candidate's ranks, from expert orderings written as strings, best first,
    each with how many experts gave it."""
    experts = [order for order, count in orders for _ in range(count)]
    return {doc: [order.index(doc) + 1 for order in experts] for doc in sorted(experts[0])}


def test_typkes_worked_example_domus_israel_speravit():
    # Typke, Veltkamp, Wiering 2006, Table 1 and §1: for Winter's "Domus Israel
    # speravit" (600.054.278) the 31 experts put the query's own incipit first but "do
    # not agree on whether the second or the third incipit is more similar": groups
    # ⟨(600.054.278), (600.055.822, 450.040.980)⟩. The paper gives the groups, not the
    # ranks; these ranks tell its story: all 31 rank 600.054.278 first, 16 rank
    # 600.055.822 second and 15 rank 450.040.980 second.
    ranks = {
        "600.054.278": [1] * 31,
        "600.055.822": [2] * 16 + [3] * 15,
        "450.040.980": [3] * 16 + [2] * 15,
    }
    # medians 1, 2, 3. scipy.stats.mannwhitneyu(…, alternative="two-sided").pvalue:
    #   600.055.822 vs 600.054.278: 1.8902560756481453e-13 < 0.25 → a new group
    #   450.040.980 vs 600.055.822: 0.8073730747275402 ≥ 0.25 → the same group
    result = groups_from_ranks(ranks)
    assert result.groups == (("600.054.278",), ("600.055.822", "450.040.980"))
    assert result.pvalues[("600.055.822", "600.054.278")] == pytest.approx(1.8902560756481453e-13)
    assert result.pvalues[("450.040.980", "600.055.822")] == pytest.approx(0.8073730747275402)


#: A hand-made study: 31 experts order six candidates of one query, best first.
STUDY = ranks_of(
    [
        ("abcdef", 8),
        ("abdcef", 4),
        ("acbdef", 6),
        ("acdbef", 4),
        ("adbcef", 4),
        ("adcbfe", 5),
    ]
)
# Median (mean) ranks: a 1 (1.0), b 3 (2.9032), c 3 (2.9355), d 3 (3.1613), e 5
# (5.1613), f 6 (5.8387): b, c and d tie on the median, the mean orders them.
# scipy.stats.mannwhitneyu(x, y, alternative="two-sided").pvalue (scipy 1.17.1):
#   b–a 3.2409172651460074e-13   c–a 3.1349873688676246e-13   d–a 3.022655885113996e-13
#   c–b 0.8573901475111023       d–b 0.23144156795829085      d–c 0.2688924120867705
#   e–b 1.4589840824904444e-12   e–c 1.4163427518282929e-12   e–d 1.3709613974863848e-12
#   f–e 1.2730272445846737e-07
SCIPY = {
    ("b", "a"): 3.2409172651460074e-13,
    ("c", "b"): 0.8573901475111023,
    ("d", "b"): 0.23144156795829085,
    ("d", "c"): 0.2688924120867705,
    ("e", "d"): 1.3709613974863848e-12,
    ("f", "e"): 1.2730272445846737e-07,
}


@pytest.mark.parametrize(
    ("rule", "alpha", "expected"),
    [
        # all, α = 0.25: b differs from a → new; c not from b → joins; d differs from b
        # (0.231) but not from c (0.269) → not from every one: joins; e differs from b,
        # c and d → new; f from e → new
        ("all", 0.25, ("a", "bcd", "e", "f")),
        # any: d differs from b → a new group
        ("any", 0.25, ("a", "bc", "d", "e", "f")),
        # prev: d is compared with c only (0.269) → joins
        ("prev", 0.25, ("a", "bcd", "e", "f")),
        # all, α = 0.3: d differs from b (0.231) and from c (0.269) → a new group
        ("all", 0.3, ("a", "bc", "d", "e", "f")),
        # all, α = 0.05: d differs from neither → joins, as at 0.25
        ("all", 0.05, ("a", "bcd", "e", "f")),
    ],
)
def test_a_study_of_31_experts_gives_the_groups_worked_out_from_scipys_pvalues(
    rule, alpha, expected
):
    result = groups_from_ranks(STUDY, alpha=alpha, rule=rule)
    assert result.order == tuple("abcdef")
    assert result.groups == tuple(tuple(group) for group in expected)


def test_the_pvalues_it_reports_are_scipys():
    result = groups_from_ranks(STUDY, rule="all")
    for pair, p in SCIPY.items():
        assert result.pvalues[pair] == pytest.approx(p, rel=1e-12)


def test_the_result_does_not_depend_on_the_order_candidates_come_in():
    reordered = dict(reversed(list(STUDY.items())))
    assert groups_from_ranks(reordered).groups == groups_from_ranks(STUDY).groups


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="unknown rule 'some'"):
        groups_from_ranks(STUDY, rule="some")
    with pytest.raises(ValueError, match="alpha must be between 0 and 1"):
        groups_from_ranks(STUDY, alpha=1.5)


def test_a_rankings_file_is_read_per_query_and_candidate():
    ranks = read_rankings(b"e1 q1 a 1\ne1 q1 b 2\r\n\ne2 q1 a 2\ne2 q1 b 1\ne1 q2 x 1\n")
    assert ranks == {"q1": {"a": [1.0, 2.0], "b": [2.0, 1.0]}, "q2": {"x": [1.0]}}


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        (b"e1 q a 1\ne1 q b\n", 2, "expected 4 fields (EXPERT QUERY DOC RANK), found 3"),
        (b"e1 q a 0\n", 1, "rank '0' is not a whole number from 1 (1 = most similar)"),
        (b"e1 q a 1.5\n", 1, "rank '1.5' is not a whole number from 1"),
        (
            b"e1 q a 1\ne2 q a 1\ne1 q a 2\n",
            3,
            "expert 'e1' already ranked 'a' for query 'q' (line 1)",
        ),
        (b"e1 q \xff 1\n", 1, "the line is not UTF-8 text"),
    ],
)
def test_a_bad_rankings_file_is_named_with_its_line(tmp_path, content, line, problem):
    path, message = read_error(read_rankings, tmp_path, content, "rankings.txt")
    assert message.startswith(f"{path}:{line}: {problem}")


def test_an_empty_rankings_file_is_named(tmp_path):
    path, message = read_error(read_rankings, tmp_path, b"\n \n")
    assert message == f"{path}: no rankings found (expected lines of EXPERT QUERY DOC RANK)"
