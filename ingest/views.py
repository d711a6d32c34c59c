"""Upload pages: choose files and options, then watch the import's job (``/jobs/<id>/``).

Thin: the files are checked and stored by :func:`ingest.services.uploads.upload_create`,
imported by the background job :func:`~ingest.services.uploads.upload_start` starts, and
a CrowdFlower export's columns are chosen on :func:`upload_columns` first. Every page
needs ``write`` on the collection (:mod:`catalog.selectors.access`).

A request larger than one upload may be is refused with 413 *before* its body is read:
the view is exempt from the CSRF middleware (which would read the body first) and checks
the token itself, with :func:`~django.views.decorators.csrf.csrf_protect`, once the size
is known to be acceptable.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods

from catalog import selectors
from common.roles import organiser_required
from crowd.services.answer_columns import (
    answer_mapping_proposal,
    answer_mapping_remember,
    answer_values,
    export_columns,
)
from ingest.forms import UPLOAD_FORMS, ColumnMappingForm
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
SAMPLE_SHOWN = 5


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
            return _form_page(request, collection, kind, form, refused.message, refused.status)
    return _upload_new(request, collection, kind)


@csrf_protect
def _upload_new(request, collection, kind: str):
    if request.method != "POST":
        return _form_page(request, collection, kind, UPLOAD_FORMS[kind](), "", 200)
    form = UPLOAD_FORMS[kind](request.POST, request.FILES)
    if not form.is_valid():
        return _form_page(request, collection, kind, form, "", 400)
    files = {role: request.FILES.getlist(role) for role in request.FILES}
    try:
        upload = upload_create(
            kind=kind, owner=request.user, collection=collection, files=files,
            options=form.options(),
        )  # fmt: skip
    except UploadRefused as refused:
        return _form_page(request, collection, kind, form, refused.message, refused.status)
    if kind == Upload.ANSWERS and upload.options.get("format") == "crowdflower":
        return redirect("ingest:upload_columns", collection.pk, upload.pk)
    return redirect(upload_start(upload=upload))


def _form_page(request, collection, kind, form, error: str, status: int):
    context = {
        "collection": collection, "kind": kind, "title": TITLES[kind], "form": form,
        "limits": upload_limits(kind), "error": error,
    }  # fmt: skip
    return render(request, "ingest/upload_form.html", context, status=status)


@require_http_methods(["GET", "POST"])
@organiser_required
def upload_columns(request, pk: int, upload_pk: int):
    """The column mapping of a CrowdFlower export, then its import's job."""
    collection = _collection(request, pk)
    upload = get_object_or_404(Upload, pk=upload_pk, collection=collection, kind=Upload.ANSWERS)
    if upload.job_id is not None:  # mapped already (a second click of the button): its job
        return redirect(upload.job)
    try:
        header, rows = export_columns(upload=upload)
    except UploadRefused as refused:
        form = UPLOAD_FORMS[Upload.ANSWERS]()
        return _form_page(request, collection, Upload.ANSWERS, form, refused.message, 400)
    proposal = answer_mapping_proposal(upload=upload, header=header, rows=rows)
    column = request.POST.get("answer") or proposal.answer
    values = answer_values(header, rows, column)
    data = request.POST if request.method == "POST" else None
    form = ColumnMappingForm(data, header=header, values=values, initial=proposal)
    if request.method == "POST" and form.is_valid():
        answer_mapping_remember(upload=upload, header=header, mapping=form.mapping)
        return redirect(upload_start(upload=upload, options={"mapping": form.mapping.to_dict()}))
    context = {
        "collection": collection, "upload": upload, "form": form, "header": header,
        "sample": rows[:SAMPLE_SHOWN], "file_name": upload.files[0]["name"],
    }  # fmt: skip
    return render(
        request, "ingest/upload_columns.html", context, status=400 if form.errors else 200
    )
