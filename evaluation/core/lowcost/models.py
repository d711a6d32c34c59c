"""The published relevance models of the thesis: Table A.1 (appendix A).

Fitted by Urbano on every MIREX AMS judgment of 2007, 2009, 2010 and 2011 (§7.3):

- :data:`M_OUT` — output-based features only (fSYS, OV, fART, sGEN, fGEN and the
  fSYS:OV and sGEN:fGEN interactions), usable before any judgment;
- :data:`M_JUD` — fSYS, aSYS and aART, usable once the pair's systems and artist have
  judged documents.

Both exist for the Broad scale (levels 0, 1, 2) and the Fine scale collapsed to 10
levels (values 5, 15, ..., 95); the judgment-based features average raw judgments
(Broad 0–2, Fine 0–100). :data:`HISTORICAL` holds the fixed distribution of §7.2.1
(the MIREX 2007–2011 judgments: E and Var only, which is all the measures need) and
:data:`UNIFORM` the uniform one.

Allcea (the author's later C# tool) ships the same Fine M_jud but a different Fine
M_out (:data:`ALLCEA_M_OUT_FINE`, refitted after the thesis); it is kept here for
comparison only (see ``docs/low-cost-evaluation.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

from evaluation.core.lowcost.ordinal import OrdinalModel

M_OUT_TERMS = ("fSYS", "OV", "fSYS:OV", "fART", "sGEN", "fGEN", "sGEN:fGEN")
M_JUD_TERMS = ("fSYS", "aSYS", "aART")

M_OUT = {
    "broad": OrdinalModel(
        "M_out",
        "broad",
        M_OUT_TERMS,
        (-19.7968, -0.3227, 29.6378, 3.2530, 1.8975, 5.4055, -2.9606),
        (-1.4351, -3.5205),
    ),
    "fine": OrdinalModel(
        "M_out",
        "fine",
        M_OUT_TERMS,
        (-17.4721, 0.1336, 26.4550, 2.9111, 2.0443, 5.4544, -3.4851),
        (-0.5092, -1.2231, -1.7919, -2.2787, -2.7216, -3.1956, -3.8044, -4.6928, -5.9567),
    ),
}

M_JUD = {
    "broad": OrdinalModel(
        "M_jud", "broad", M_JUD_TERMS, (0.9789, 1.1964, 7.1813), (-5.2165, -11.9251)
    ),
    "fine": OrdinalModel(
        "M_jud",
        "fine",
        M_JUD_TERMS,
        (0.7954, 0.0128, 0.2078),
        (-2.7554, -4.9168, -7.0128, -9.0010, -10.8548, -12.7158, -14.6722, -16.8831, -19.2536),
    ),
}

ALLCEA_M_OUT_FINE = OrdinalModel(
    "M_out (Allcea)",
    "fine",
    M_OUT_TERMS,
    (-6.344153, 1.321577, 11.686008, 3.129546, 1.887742, 5.009749, -3.072573),
    (
        -1.315410,
        -2.049103,
        -2.609735,
        -3.085994,
        -3.524842,
        -3.990695,
        -4.577862,
        -5.447831,
        -6.708953,
    ),
)


@dataclass(frozen=True)
class FixedDistribution:
    """One relevance distribution for every unjudged pair (§7.2.1): its E and Var."""

    name: str
    expectation: float
    variance: float


#: §7.2.1: the MIREX 2007–2011 judgments (Figure 7.1).
HISTORICAL = {
    "broad": FixedDistribution("historical", 0.8959, 0.6338),
    "fine": FixedDistribution("historical", 43.41, 900.4),
}
#: §7.2.1: every level equally likely; Broad E = 1, Var = 2/3; Fine E = 50, Var = 850.
UNIFORM = {
    "broad": FixedDistribution("uniform", 1.0, 2.0 / 3.0),
    "fine": FixedDistribution("uniform", 50.0, (101**2 - 1) / 12.0),
}
