"""The project's one CSV writer, so how a cell reaches a spreadsheet is decided once.

:func:`csv_text` writes every CSV an organiser downloads (the crowd's answers and
approvals, a relevance campaign's judgments, the evaluation layer's leaderboards,
mappings and plot data); :func:`download` wraps a file in the response that makes the
browser save it.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

from django.http import HttpResponse

from common.validation import SPREADSHEET_FORMULA_STARTS

FORMULA_STARTS = (*SPREADSHEET_FORMULA_STARTS, "\t", "\r")
"""A cell beginning with one of these is run as a formula by Excel, LibreOffice or Google
Sheets (OWASP, "CSV Injection")."""
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)")


def spreadsheet_safe(value):
    """``value`` as a cell no spreadsheet runs as a formula (OWASP's advice).

    A text cell starting with ``= + - @``, a tab or a carriage return gets a leading
    apostrophe, which spreadsheets show as text and never evaluate; numbers, including
    negative ones written as text (``-0.05``), are left alone.

    >>> print(spreadsheet_safe('=HYPERLINK("http://evil","x")'), spreadsheet_safe("-0.05"))
    '=HYPERLINK("http://evil","x") -0.05
    >>> spreadsheet_safe(-0.05), spreadsheet_safe("@SUM(1)"), spreadsheet_safe("ok")
    (-0.05, "'@SUM(1)", 'ok')
    """
    formula = isinstance(value, str) and value.startswith(FORMULA_STARTS)
    return "'" + value if formula and not _NUMBER.fullmatch(value) else value


def csv_text(
    header: Sequence[str] | None, rows: Iterable[Sequence], *, lineterminator: str = "\r\n"
) -> str:
    """A CSV document: the header (none if ``None``, for pages that take bare lines), then
    one line per row (``None`` is an empty cell).

    Every cell passes :func:`spreadsheet_safe`, so an export of what workers or
    organisers typed (worker ids, comments, system names) never runs in a spreadsheet.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=lineterminator)
    if header is not None:
        writer.writerow([spreadsheet_safe(cell) for cell in header])
    writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return out.getvalue()


def download(content: str, *, filename: str, content_type: str) -> HttpResponse:
    """A response the browser saves as ``filename``."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
