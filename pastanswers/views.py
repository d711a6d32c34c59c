"""The step of an upload of past answers before its import: a CrowdFlower export's
columns chosen by the organiser (the proposal remembered or guessed,
:mod:`pastanswers.services.answer_columns`), then the import's job."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from catalog import selectors
from common.roles import organiser_required
from ingest.forms import UPLOAD_FORMS
from ingest.models import Upload
from ingest.services.uploads import UploadRefused, upload_start
from ingest.views import upload_form_page
from pastanswers.forms import ColumnMappingForm
from pastanswers.services.answer_columns import (
    answer_mapping_proposal,
    answer_mapping_remember,
    answer_values,
    export_columns,
)

SAMPLE_SHOWN = 5


@require_http_methods(["GET", "POST"])
@organiser_required
def upload_columns(request, pk: int, upload_pk: int):
    """The column mapping of a CrowdFlower export, then its import's job."""
    collection = selectors.collection_for_organiser(
        user=request.user, collection_id=pk, need="write"
    )
    upload = get_object_or_404(Upload, pk=upload_pk, collection=collection, kind=Upload.ANSWERS)
    if upload.job_id is not None:  # mapped already (a second click of the button): its job
        return redirect(upload.job)
    try:
        header, rows = export_columns(upload=upload)
    except UploadRefused as refused:
        form = UPLOAD_FORMS[Upload.ANSWERS]()
        return upload_form_page(request, collection, Upload.ANSWERS, form, refused.message, 400)
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
        request, "pastanswers/upload_columns.html", context, status=400 if form.errors else 200
    )
