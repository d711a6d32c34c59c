"""The leaderboard page's table: each row's numbers as the text the page shows, made once in
Python.

With 180 systems the table is 1,600 numbers: through Django's ``floatformat`` filter (a
``Decimal`` and the locale's number format for each) and an ``{% include %}`` per interval,
it was nearly all of the page's time. :func:`fixed` gives the text of ``floatformat:N`` and
:func:`plain` that of ``{{ value }}`` for the numbers a leaderboard holds, under this
installation's settings (English, no thousands separator): ``evaluation/tests/test_leaderboard_rows.py``
compares them with Django's own on every kind of number, so the page reads the same.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation, getcontext
from html import escape as _escape

from django.utils.safestring import SafeString, mark_safe

_TOO_LONG = 200  # digits + exponent past which Django prints a number as it came


def fixed(value, places: int) -> str:
    """``{{ value|floatformat:places }}`` (``places`` > 0): rounded half up, no grouping.

    >>> fixed(0.12345, 4), fixed(-0.00001, 4), fixed(2, 2), fixed(None, 4)
    ('0.1235', '0.0000', '2.00', '')
    """
    if value is None:
        return ""
    if type(value) is float and abs(value) < 2**31 and places <= 6:
        shortest = repr(value)
        point = shortest.find(".")
        # Below 2**31 a float's spacing is under 1e-6: its own rounding gives the digits
        # that rounding its shortest repr half up gives, unless that repr ends in a 5 just
        # past the last place (a tie, left to Decimal).
        if (
            point >= 0
            and "e" not in shortest
            and not (len(shortest) - point - 1 == places + 1 and shortest[-1] == "5")
        ):
            text = f"{value:.{places}f}"
            return text[1:] if text[0] == "-" and not text.strip("-0.") else text
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return ""
    if not number.is_finite():
        return str(value)
    _, digits, exponent = number.as_tuple()
    if len(digits) + abs(exponent) > _TOO_LONG:
        return str(value)
    units = len(digits) + (-exponent if int(number) != number else exponent)
    precision = max(getcontext().prec, places + units + 1)
    rounded = number.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP, Context(prec=precision))
    text = f"{rounded:f}"
    return text[1:] if text.startswith("-") and not rounded else text  # no "-0.00"


def plain(value) -> str:
    """``{{ value }}`` of a number or ``None``: ``str``, without an exponent.

    >>> plain(0.25), plain(1e-05), plain(7), plain(None)
    ('0.25', '0.00001', '7', 'None')
    """
    if not isinstance(value, float) or "e" not in str(value).lower():
        return str(value)
    number = Decimal(str(value))
    _, digits, exponent = number.as_tuple()
    if abs(exponent) + len(digits) > _TOO_LONG:
        coefficient, power = f"{number:e}".split("e")
        return f"{coefficient}e{power}"
    return f"{number:f}"


def escape(value) -> str:
    """Django's ``escape`` without its lazy-string wrapper (the same ``html.escape``)."""
    return _escape(str(value))


def _or_blank(value) -> str:
    """``{{ value|default_if_none:'' }}``."""
    return "" if value is None else plain(value)


def interval(*, low, high, half, method) -> tuple[str, str]:
    """An interval's text and the method named after it (``evaluation/_interval.html``)."""
    if method == "t" or not method:
        return f"± {fixed(half, 4)}", "t" if method else ""
    return f"[{fixed(low, 4)}, {fixed(high, 4)}]", "bootstrap"


def _interval(row: dict, low: str, high: str, half: str, method: str) -> str:
    text, named = interval(
        low=row.get(low), high=row.get(high), half=row.get(half), method=row.get(method)
    )
    return f'{text} <span class="method">({named})</span>' if named else text


def table_body(rows: list[dict], *, system_url, judged: bool) -> SafeString:
    """The ``<tr>`` of every leaderboard row (``summary["rows"]`` with ``system_id``), as
    the page showed them through its template: each text escaped, each number formatted
    as Django's filters do (``evaluation/tests/test_leaderboard_rows.py`` renders that template and
    compares).

    ``system_url(system_id)`` is the address of a system's page; a system deleted since
    the computation has no id and no link. ``judged``: the column of the judged share.
    """
    lines = []
    for row in rows:
        system = escape(row["system"])
        link = system
        if row.get("system_id"):
            link = f'<a href="{escape(system_url(row["system_id"]))}">{system}</a>'
        psat, floor, psucc = row.get("psat_mean"), row.get("psat_floor"), row.get("psucc")
        if psat is None:
            psat_text = "—"
        else:
            psat_text = f"{fixed(psat, 4)} " + _interval(
                row, "psat_low", "psat_high", "psat_half_width", "psat_method"
            )
        letters = escape(
            row["letters"] if row.get("letters") is not None else row.get("group_label")
        )
        grouped = ""
        if row.get("letters") is None:
            grouped = f' class="group-{escape(row.get("group_parity"))}" data-group="{escape(row.get("group"))}"'
        cells = [
            f'<td data-value="{escape(row["rank"])}">{escape(row["rank"])}</td>',
            f'<td data-value="{system}">{link}</td>',
            f'<td data-value="{plain(row["mean"])}">{fixed(row["mean"], 4)}</td>',
            f'<td data-value="{plain(row["half_width"])}">'
            + _interval(row, "ci_low", "ci_high", "half_width", "ci_method")
            + "</td>",
            f'<td data-value="{_or_blank(psat)}">{psat_text}</td>',
            f'<td data-value="{_or_blank(psucc)}">{"—" if psucc is None else fixed(psucc, 2)}</td>',
            f'<td data-value="{_or_blank(floor)}">'
            f"{fixed(floor, 2) if floor or floor == 0 else '—'}</td>",
            f'<td data-value="{plain(row["pred_low"])}">'
            f"[{fixed(row['pred_low'], 4)}, {fixed(row['pred_high'], 4)}]</td>",
        ]
        if judged:
            share = row.get("judged")
            cells.append(
                f'<td data-value="{_or_blank(share)}">{"—" if share is None else fixed(share, 2)}</td>'
            )
        cells.append(f'<td data-value="{letters}" class="letters">{letters}</td>')
        lines.append(f"<tr{grouped}>" + "".join(cells) + "</tr>")
    return mark_safe("\n".join(lines))  # every text above is escaped


KEPT = 16
"""How many tables :func:`kept` keeps per process (about 135 KB each at 180 systems)."""
_kept: OrderedDict[Hashable, SafeString] = OrderedDict()
_kept_lock = threading.Lock()


def kept(key: Hashable, make: Callable[[], SafeString]) -> SafeString:
    """``make()``, made once per process for ``key`` and kept for the next request (the
    :data:`KEPT` tables asked for last).

    A stored leaderboard never changes under its id and ``computed_at`` (a recompute
    writes a new time), so a key made of them, with whatever else the table shows that
    lives elsewhere (the systems' ids, the address of a system's page), names one table
    for good. Formatting 1,620 numbers was a third of the page's time at 180 systems."""
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    table = make()
    with _kept_lock:
        _kept[key] = table
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return table
