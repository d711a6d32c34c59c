"""Kinds of upload the apps above ingest add to the upload pages and API (pastanswers:
past preference answers), registered from their ``AppConfig.ready()`` by
:func:`upload_kind_register`: ingest never imports them.

A kind is its files (``roles``), the most data lines a file may hold, the page's form
(its options, and the step before the import if it has one: ``form.next_page``) and what
its background job runs (``upload_<kind>``). Its API view and any page of its own live
in the app and name their URLs there.
"""

from __future__ import annotations

from catalog.job_pages import JobPage, job_page_register
from ingest.forms import UPLOAD_FORMS, UploadForm
from ingest.models import Upload
from ingest.services.uploads import MAX_LINES, ROLES, Role
from work.kinds import Run, kind_register


def upload_kind_register(
    kind: str, *, roles: tuple[Role, ...], max_lines: int | None, form: type[UploadForm],
    runner: Run,
) -> None:  # fmt: skip
    """Let organisers upload files of ``kind`` (one of :attr:`Upload.KINDS`)."""
    ROLES[kind] = roles
    if max_lines is not None:
        MAX_LINES[kind] = max_lines
    UPLOAD_FORMS[kind] = form
    kind_register(f"upload_{kind}", run=runner)
    title = dict(Upload.KINDS)[kind]
    job_page_register(
        f"upload_{kind}", JobPage(f"Upload of {title}", "ingest/job_results/upload.html")
    )
