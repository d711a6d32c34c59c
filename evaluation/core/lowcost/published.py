"""The thesis' MIREX 2011 figures with Fine judgments (Tables 8.1, 8.3, 8.5, 8.6).

What ``simulate`` is compared with (tests, ``benchmarks/bench_lowcost.py`` and
``docs/low-cost-evaluation.md``). The 2011 collection has Fine judgments only, so the
Broad columns cannot be reproduced; Tables 8.2 and 8.4 pool four years and are not
listed.
"""

from __future__ import annotations

from evaluation.core.names import DEFAULTS, parse_measure

#: Table 8.1, 2011, Fine: evaluation without judgments.
TABLE_8_1 = {
    "CG@5": {
        "confidence": 0.934,
        "accuracy": 0.935,
        "tau": 0.869,
        "rmse_delta": 0.041,
        "rho": 0.967,
        "rmse": 0.03,
    },
    "DCG@5": {
        "confidence": 0.926,
        "accuracy": 0.928,
        "tau": 0.856,
        "rmse_delta": 0.042,
        "rho": 0.965,
        "rmse": 0.032,
    },
    "nDCG@5": {
        "confidence": 0.925,
        "accuracy": 0.902,
        "tau": 0.804,
        "rmse_delta": 0.034,
        "rho": 0.944,
        "rmse": 0.185,
    },
    "RBP@5": {
        "confidence": 0.927,
        "accuracy": 0.935,
        "tau": 0.869,
        "rmse_delta": 0.034,
        "rho": 0.967,
        "rmse": 0.185,
    },
}
#: Table 8.3, 2011, Fine: judging until 95% mean confidence (of 6,322 judgments).
TABLE_8_3 = {
    "CG@5": {"judgments": 123, "accuracy": 0.935, "tau": 0.869, "rmse_delta": 0.03},
    "DCG@5": {"judgments": 181, "accuracy": 0.889, "tau": 0.778, "rmse_delta": 0.029},
    "nDCG@5": {"judgments": 516, "accuracy": 0.948, "tau": 0.895, "rmse_delta": 0.021},
    "RBP@5": {"judgments": 560, "accuracy": 0.961, "tau": 0.922, "rmse_delta": 0.022},
}
#: Table 8.5, 2011, Fine: judging until the expected error is ±0.05 (uncorrected).
TABLE_8_5 = {
    "CG@5": {"judgments": 0, "mae": 0.024, "rho": 0.967},
    "DCG@5": {"judgments": 0, "mae": 0.025, "rho": 0.965},
    "nDCG@5": {"judgments": 0, "mae": 0.184, "rho": 0.944},
    "RBP@5": {"judgments": 0, "mae": 0.184, "rho": 0.967},
}
#: Table 8.6, 2011, Fine: the same with the corrected thresholds of Fig. 8.5.
TABLE_8_6 = {
    "CG@5": {"judgments": 539, "mae": 0.017, "rho": 0.971},
    "DCG@5": {"judgments": 521, "mae": 0.019, "rho": 0.967},
    "nDCG@5": {"judgments": 1275, "mae": 0.046, "rho": 0.971},
    "RBP@5": {"judgments": 1283, "mae": 0.046, "rho": 0.975},
}


def published_key(measure: str) -> str | None:
    """The tables' key of ``measure`` (``"RBP@5"``), whatever way it is spelled.

    ``--help`` suggests ``RBP(p=0.8)@5`` and the results pages say ``CG(scale=fine)@5``:
    options at their default value and the Fine scale (the only one of the 2011
    collection) name the same measure as the tables' plain keys. Any other option (another
    ``p``, a Broad or graded scale, the exponential gain) is not what the tables measured:
    ``None``.

    >>> published_key("RBP(p=0.8)@5"), published_key("CG(scale=fine)@5"), published_key("RBP(p=0.5)@5")
    ('RBP@5', 'CG@5', None)
    """
    parsed = parse_measure(measure)
    extra = {
        name: value
        for name, value in parsed.options
        if not (name == "scale" and value == "fine") and DEFAULTS.get(name) != value
    }
    key = f"{parsed.family}@{parsed.k}"
    return key if not extra and key in TABLE_8_1 else None
