"""Upload pages: choose files and options, then watch the import's job (``/jobs/<id>/``).

Thin: the files are checked and stored by :func:`ingest.services.uploads.upload_create`,
imported by the background job :func:`~ingest.services.uploads.upload_start` starts, after
the kind's own step if its form names one (``form.next_page``: a CrowdFlower export's
columns, :func:`pastanswers.views.upload_columns`). Every page needs ``write`` on the
collection (:mod:`catalog.selectors.access`).

A request larger than one upload may be is refused with 413 *before* its body is read:
the view is exempt from the CSRF middleware (which would read the body first) and checks
the token itself, with :func:`~django.views.decorators.csrf.csrf_protect`, once the size
is known to be acceptable.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods

from catalog import selectors
from common.roles import organiser_required
from ingest.forms import UPLOAD_FORMS
from ingest.models import Upload
from ingest.services.uploads import (
    UploadRefused,
    upload_create,
    upload_limits,
    upload_request_check,
    upload_start,
)
from work.models import Job

TITLES = dict(Upload.KINDS)


def _collection(request, pk: int):
    return selectors.collection_for_organiser(user=request.user, collection_id=pk, need="write")


@require_GET
@organiser_required
def upload_index(request, pk: int):
    """What can be uploaded into the collection, with the limits, and the recent uploads."""
    collection = _collection(request, pk)
    jobs = Job.objects.filter(collection=collection, kind__startswith="upload_")[:20]
    kinds = [(kind, title, upload_limits(kind)) for kind, title in Upload.KINDS]
    context = {"collection": collection, "kinds": kinds, "jobs": jobs}
    return render(request, "ingest/upload_index.html", context)


@csrf_exempt  # checked below, after the size (see the module)
@require_http_methods(["GET", "POST"])
@organiser_required
def upload_new(request, pk: int, kind: str):
    if kind not in UPLOAD_FORMS:
        raise Http404("No such kind of upload.")
    collection = _collection(request, pk)
    if request.method == "POST":
        try:
            upload_request_check(content_length=request.META.get("CONTENT_LENGTH"))
        except UploadRefused as refused:
            form = UPLOAD_FORMS[kind]()
            return upload_form_page(
                request, collection, kind, form, refused.message, refused.status
            )
    return _upload_new(request, collection, kind)


@csrf_protect
def _upload_new(request, collection, kind: str):
    if request.method != "POST":
        return upload_form_page(request, collection, kind, UPLOAD_FORMS[kind](), "", 200)
    form = UPLOAD_FORMS[kind](request.POST, request.FILES)
    if not form.is_valid():
        return upload_form_page(request, collection, kind, form, "", 400)
    files = {role: request.FILES.getlist(role) for role in request.FILES}
    try:
        upload = upload_create(
            kind=kind, owner=request.user, collection=collection, files=files,
            options=form.options(),
        )  # fmt: skip
    except UploadRefused as refused:
        return upload_form_page(request, collection, kind, form, refused.message, refused.status)
    after = form.next_page(upload)  # a step before the import (a CrowdFlower export's columns)
    return redirect(after or upload_start(upload=upload))


def upload_form_page(request, collection, kind, form, error: str, status: int):
    """The upload page of ``kind`` with ``form``, the limits and what went wrong."""
    context = {
        "collection": collection, "kind": kind, "title": TITLES[kind], "form": form,
        "limits": upload_limits(kind), "error": error,
    }  # fmt: skip
    return render(request, "ingest/upload_form.html", context, status=status)
