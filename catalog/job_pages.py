"""What a background job's pages call each kind of job and how they show its result.

The job pages are catalog's (a job belongs to a collection, reached through its access
rule: :mod:`catalog.views.jobs`); the kinds of job are the apps' above it, which register
their page from their ``AppConfig.ready()`` (:func:`job_page_register`): a title, the
template of the result page (which includes ``catalog/job_results/_state.html``) and
what else that template reads. A kind nobody registered gets its name as the title and
the result printed as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

ANY_RESULT = "catalog/job_results/_any.html"


@dataclass(frozen=True)
class JobPage:
    title: str
    result_template: str = ANY_RESULT
    context: Callable[..., dict] | None = None
    """``context(job=…)`` → more of the result page's context."""


JOB_PAGES: dict[str, JobPage] = {}
"""``Job.kind`` → its pages."""


def job_page_register(kind: str, page: JobPage) -> None:
    JOB_PAGES[kind] = page


def job_page_of(kind: str) -> JobPage:
    return JOB_PAGES.get(kind) or JobPage(title=kind)
