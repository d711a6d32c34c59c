r"""The published satisfaction mappings of thesis Table 4.3, and the thesis' names of measures.

Table 4.3 gives, for 40 (measure, scale) combinations, the cubic
:math:`sat(\lambda) = a_0 + a_1\lambda + a_2\lambda^2 + a_3\lambda^3` fitted to the
thesis' crowd answers (eq. 4.3): a campaign's mapping until it has answers of its own.

Measures are named there as in the thesis: ``CG_l@5``, ``CG_e@5``, ``DCG_l@5``,
``DCG_e@5``, ``Q_l@5``, ``Q_e@5``, ``RBP_l@5``, ``RBP_e@5``, ``GAP@5``, ``P@5``, ``AP@5``
(``_l`` linear gain, ``_e`` exponential gain; user-oriented forms of thesis §3.1.1).
Scales are ``broad``, ``fine``, ``graded4``, ``graded5`` (artificial n_L-level scales
from Fine) and ``rel=20``, ``rel=40`` (binary, relevant iff Fine ≥ ℓ_min).
:func:`thesis_name` translates Earshot's measure names (:mod:`evaluation.core.names`,
e.g. ``CG(scale=fine)@5``) into these keys, and :func:`published_mapping_for` looks a
measure up by its Earshot name.

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, Table 4.3. PhD thesis,
Universidad Carlos III de Madrid. http://hdl.handle.net/10016/18041
"""

from __future__ import annotations

from evaluation.core.names import FAMILIES, Measure, parse_measure
from evaluation.core.satisfaction import CubicMapping

__all__ = [
    "GAIN_FAMILIES",
    "PUBLISHED_MAPPINGS",
    "published_mapping",
    "published_mapping_for",
    "thesis_name",
]

GAIN_FAMILIES = frozenset(name for name, family in FAMILIES.items() if "gain" in family.options)
"""Families whose thesis name carries the gain: ``_l`` (linear) or ``_e`` (exponential)."""

#: Cubic coefficients (a0, a1, a2, a3) of thesis Table 4.3 ("Fitted parameters of the
#: sat(λ) = a0 + a1 λ + a2 λ² + a3 λ³ models"), transcribed row by row for every
#: (measure, scale) the table lists: 9 measures × Broad, 5 × Fine, 9 × n_L = 4,
#: 9 × n_L = 5, 4 × ℓ_min = 20 and 4 × ℓ_min = 40 — 40 combinations (Table 4.1).
_TABLE_4_3: dict[tuple[str, str], tuple[float, float, float, float]] = {
    ("CG_l@5", "broad"): (0.1872, -0.0969, 1.9908, -1.237),
    ("CG_e@5", "broad"): (0.1601, 0.9345, -0.3245, 0.1463),
    ("DCG_l@5", "broad"): (0.1614, 0.4043, 1.1288, -0.8535),
    ("DCG_e@5", "broad"): (0.1253, 1.2334, -0.7733, 0.2884),
    ("Q_l@5", "broad"): (0.1291, 1.0993, -0.2774, -0.1157),
    ("Q_e@5", "broad"): (0.1117, 1.6064, -1.4001, 0.5267),
    ("RBP_l@5", "broad"): (0.1666, 0.3591, 1.2609, -0.9536),
    ("RBP_e@5", "broad"): (0.1297, 1.1906, -0.6452, 0.204),
    ("GAP@5", "broad"): (0.1018, 1.7272, -1.6028, 0.6471),
    ("CG_l@5", "fine"): (0.2007, -0.4632, 3.6754, -2.6338),
    ("DCG_l@5", "fine"): (0.1873, -0.3, 3.3552, -2.4675),
    ("Q_l@5", "fine"): (0.1509, 0.3214, 2.0057, -1.7292),
    ("RBP_l@5", "fine"): (0.1722, -0.1443, 3.0142, -2.253),
    ("GAP@5", "fine"): (0.1131, 1.0327, 0.6077, -0.9409),
    ("CG_l@5", "graded4"): (0.2162, -0.1609, 2.151, -1.3492),
    ("CG_e@5", "graded4"): (0.1879, 0.6952, 0.5243, -0.5204),
    ("DCG_l@5", "graded4"): (0.1908, 0.1522, 1.637, -1.1374),
    ("DCG_e@5", "graded4"): (0.1592, 1.1177, -0.4211, 0.0049),
    ("Q_l@5", "graded4"): (0.143, 0.9574, -0.0258, -0.2404),
    ("Q_e@5", "graded4"): (0.1125, 1.8645, -1.93, 0.8061),
    ("RBP_l@5", "graded4"): (0.1884, 0.1822, 1.5873, -1.1176),
    ("RBP_e@5", "graded4"): (0.1605, 1.0565, -0.2106, -0.1524),
    ("GAP@5", "graded4"): (0.124, 1.4399, -0.883, 0.1802),
    ("CG_l@5", "graded5"): (0.1895, -0.0282, 1.9266, -1.2236),
    ("CG_e@5", "graded5"): (0.1734, 1.1467, -0.3836, -0.0491),
    ("DCG_l@5", "graded5"): (0.1853, 0.1434, 1.737, -1.2215),
    ("DCG_e@5", "graded5"): (0.141, 1.5581, -1.2976, 0.465),
    ("Q_l@5", "graded5"): (0.1438, 0.8224, 0.3413, -0.4773),
    ("Q_e@5", "graded5"): (0.0956, 2.4332, -3.2653, 1.5964),
    ("RBP_l@5", "graded5"): (0.1761, 0.2562, 1.5186, -1.1098),
    ("RBP_e@5", "graded5"): (0.1406, 1.5719, -1.3141, 0.4653),
    ("GAP@5", "graded5"): (0.1209, 1.4456, -0.8938, 0.2014),
    ("P@5", "rel=20"): (0.1541, 0.1227, 0.0152, 0.5589),
    ("AP@5", "rel=20"): (0.1428, 0.4791, 0.4859, -0.3479),
    ("DCG_l@5", "rel=20"): (0.1742, -0.0972, 1.0231, -0.2768),
    ("RBP_l@5", "rel=20"): (0.1635, 0.0401, 0.6029, 0.0208),
    ("P@5", "rel=40"): (0.2352, -0.3261, 1.5421, -0.5807),
    ("AP@5", "rel=40"): (0.1659, 0.9044, -0.0926, -0.1725),
    ("DCG_l@5", "rel=40"): (0.2292, -0.1256, 1.4722, -0.7195),
    ("RBP_l@5", "rel=40"): (0.2291, -0.1532, 1.5484, -0.7779),
}

#: Table 4.3 as :class:`CubicMapping` objects keyed by (measure, scale).
PUBLISHED_MAPPINGS: dict[tuple[str, str], CubicMapping] = {
    key: CubicMapping(*coef, source=f"Urbano 2013, Table 4.3 ({key[0]}, {key[1]})")
    for key, coef in _TABLE_4_3.items()
}


def published_mapping(measure: str, scale: str) -> CubicMapping:
    """The Table 4.3 mapping for ``(measure, scale)``, e.g. ``('GAP@5', 'broad')``.

    Examples
    --------
    The thesis' example (§4.1.2): GAP@5 = 0.32 with Broad judgments.

    >>> round(published_mapping("GAP@5", "broad")(0.32), 4)
    0.5116
    """
    try:
        return PUBLISHED_MAPPINGS[(measure, scale)]
    except KeyError:
        known = ", ".join(f"{m}/{s}" for m, s in PUBLISHED_MAPPINGS)
        raise KeyError(
            f"Table 4.3 has no mapping for ({measure!r}, {scale!r}); it has: {known}"
        ) from None


def thesis_name(measure: Measure | str) -> tuple[str, str] | None:
    """The (measure, scale) key of thesis Table 4.3 for a measure, if it has one.

    Table 4.3 maps user-oriented λ (thesis ch. 3–4): a measure with two forms only maps
    in its ``form=user``; CG, DCG and P have a single form.

    Examples
    --------
    >>> thesis_name("CG(scale=fine)@5")
    ('CG_l@5', 'fine')
    >>> thesis_name("RBP(form=user,gain=exp,scale=broad)@5")
    ('RBP_e@5', 'broad')
    >>> thesis_name("P(rel=40)@5")
    ('P@5', 'rel=40')
    >>> thesis_name("RBP@5") is None  # system-oriented
    True
    """
    if isinstance(measure, str):
        measure = parse_measure(measure)
    family = measure.family
    if "form" in FAMILIES[family].options and measure.option("form") != "user":
        return None
    name = family
    if family in GAIN_FAMILIES:
        name += "_l" if measure.option("gain") == "lin" else "_e"
    name += f"@{measure.k}"
    rel = measure.option("rel")
    scale = f"rel={rel:g}" if rel is not None else measure.option("scale")
    return name, scale


def published_mapping_for(label: str) -> dict | None:
    """The Table 4.3 mapping of a measure named as Earshot names it, as results store it.

    Returns ``{"source": "published", "label": <a sentence naming the table row>,
    "coefficients": [a0, a1, a2, a3]}``, or ``None`` when the table has no row for it.

    Examples
    --------
    >>> published_mapping_for("GAP(form=user,scale=broad)@5")["coefficients"]
    [0.1018, 1.7272, -1.6028, 0.6471]
    >>> published_mapping_for("nDCG@10") is None
    True
    """
    key = thesis_name(label)
    if key is None or key not in PUBLISHED_MAPPINGS:
        return None
    return {
        "source": "published",
        "label": f"the published mapping of thesis Table 4.3 for {key[0]} ({key[1]})",
        "coefficients": list(PUBLISHED_MAPPINGS[key].coefficients),
    }
