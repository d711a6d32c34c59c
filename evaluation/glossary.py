"""The words of the results pages, each in one or two sentences an organiser reads, with
where in the thesis (Urbano 2013) or the paper it comes from. The glossary page lists
them and the pages' ``{% term "…" %}`` tag puts the sentence on the word (hover, focus)."""

from __future__ import annotations

from django.conf import settings
from django.utils.text import slugify

TERMS: dict[str, tuple[str, str]] = {
    "Broad and Fine scales": (
        "How similar a candidate clip is to the query: Broad is Not, Somewhat or Very similar "
        "(0–2), Fine a number from 0 to 100, as in MIREX's Audio Music Similarity task.",
        "thesis §2.2",
    ),
    "effectiveness measure": (
        "A number from 0 to 1 that scores one system's ranked list for one query from the "
        "judgments of its clips (CG@k, nDCG@k, RBP, …); a leaderboard shows each system's mean "
        "over the queries.",
        "thesis §2.5, §5.2",
    ),
    "interval": (
        "The range the system's mean is likely in (95 %). The t interval (thesis eq. 4.6) needs "
        "many queries; with few, or near 0 or 1, the bootstrap percentile interval is used, "
        "which never leaves the range the measure can take. The method is named beside it.",
        "thesis eq. 4.6; Efron & Tibshirani 1993",
    ),
    "P(Sat)": (
        "The probability that a user is satisfied by the list: the mapping from the measure's "
        "score to the share of users who preferred such lists in preference judgments.",
        "thesis ch. 3–4",
    ),
    "P(Succ)": (
        "The probability that a user finds the list at least as good as what they need: "
        "satisfied, or the list is not worse than the alternative.",
        "thesis §4.2",
    ),
    "satisfaction mapping": (
        "How scores of a measure translate into user satisfaction, fitted from crowd workers' "
        "preferences between two lists (or the thesis' published mappings, Table 4.3).",
        "thesis §3.3, Table 4.3",
    ),
    "adjusted p-value": (
        "How likely a difference this large would be between two systems that are in fact "
        "equally good, corrected for the many pairs compared at once (Holm or Bonferroni). "
        "Below α (0.05) the two are called significantly different.",
        "thesis §5.1–5.5",
    ),
    "letters": (
        "Two systems share a letter exactly when they are not significantly different; "
        "systems with no letter in common are.",
        "Piepho 2004",
    ),
    "Eρ²": (
        "Expected generalizability coefficient: how well the ranking of systems on these "
        "queries predicts their ranking on other queries (0–1; 0.95 is usual).",
        "thesis ch. 6 (G-theory)",
    ),
    "Φ": (
        "Dependability index: like Eρ², but for the systems' absolute scores, not only their "
        "order (0–1).",
        "thesis ch. 6 (G-theory)",
    ),
    "D-study": (
        "How many queries a collection needs to reach a target Eρ² or Φ, estimated from the "
        "variance of the judged queries.",
        "thesis §6.3",
    ),
    "Judged@k": (
        "The share of a system's top k clips that have a judgment; unjudged clips count as not "
        "similar, which can rank a good system too low.",
        "MacAvaney et al. 2022 (ir-measures); Buckley & Voorhees 2004",
    ),
    "official and pilot sources": (
        "Every judgment belongs to a source; an official source counts in the results, a pilot "
        "is kept and shown but left out.",
        "Earshot",
    ),
    "trap question": (
        "An example whose answer is clear, mixed among the others: how often a worker answers "
        "it well is their trust, and untrusted workers are stopped, their answers excluded.",
        "thesis §3.2.2",
    ),
    "coverage": (
        "The share of a clip's first {window} seconds that reached the listener's browser "
        "(counted as it arrives: a browser that hangs up early gets no more counted); a clip "
        "counts as heard from {coverage} % of it. It is what the server observed, not what a "
        "page reports.",
        "Earshot",
    ),
    "impossible listening figures": (
        "The judging page reported more listening time for a candidate than has passed since "
        "its clip first reached the assessor, or more plays than two a second of that time. "
        "Such figures are kept cut to what the server observed, and counted here.",
        "Earshot",
    ),
    "agreement with others": (
        "How often a crowd worker gives the same answer as the other workers who answered "
        "the same examples, and how often the opposite (A better for B better, both good "
        "for both bad), estimated with the trap questions' expected answers as anchors. A "
        "worker who gives the opposite more often than someone answering at random "
        "would (one time in four, over at least five answers compared), or more than one "
        "time in three on the examples that are not trap questions (over at least six), is "
        "stopped at a checkpoint and left out of the mapping. It "
        "cannot tell when most answers to an example come from one person's many ids.",
        "Dawid and Skene (1979), adapted in Earshot",
    ),
    "every clip heard": (
        "An answer whose query and every clip of both lists had enough coverage, with time "
        "from the first clip to the answer to hear them one after another ({per_clip} s "
        "each, or all of a shorter clip).",
        "Earshot",
    ),
    "low-cost evaluation": (
        "Estimating the leaderboard before every clip is judged, and choosing the judgments "
        "that settle it soonest.",
        "thesis ch. 7–8",
    ),
}


def anchor(word: str) -> str:
    """The glossary's anchor of ``word`` (letters kept: ``Eρ²`` → ``eρ2``, ``Φ`` → ``φ``)."""
    return slugify(word, allow_unicode=True)


def explanation(word: str) -> str:
    """The explanation of ``word``, with this installation's listening rule filled in
    (``{window}``, ``{coverage}``, ``{per_clip}``: the ``EARSHOT_LISTEN_*`` settings)."""
    return TERMS[word][0].format(
        window=settings.EARSHOT_LISTEN_WINDOW_SECONDS,
        coverage=round(settings.EARSHOT_LISTEN_COVERAGE * 100),
        per_clip=settings.EARSHOT_LISTEN_SECONDS_PER_CLIP,
    )


def entries() -> list[tuple[str, str, str, str]]:
    """``(anchor, word, explanation, source)`` for the glossary page."""
    return [(anchor(word), word, explanation(word), source) for word, (_, source) in TERMS.items()]
