"""The one error every importer raises: it names the file, the line and the problem."""

from __future__ import annotations

from pathlib import Path


class ImportFailed(Exception):
    """Bad input stopped an import; nothing was written.

    ``str()`` reads like ``runs.tsv, line 12: duplicate document 'x' in the ranked list
    of system 'S' for query 'Q'`` (or ``runs.tsv: no such file`` when no line is to blame).
    """

    def __init__(self, path: str | Path, line: int | None, message: str) -> None:
        self.path = Path(path)
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path.name or str(self.path)
        if self.line is None:
            return f"{where}: {self.message}"
        return f"{where}, line {self.line}: {self.message}"
