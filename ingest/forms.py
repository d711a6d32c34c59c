"""The upload pages' forms: the files of each kind of upload and its options.

The files themselves are read from ``request.FILES`` by role (:data:`ingest.services.uploads.ROLES`)
and checked by :func:`ingest.services.uploads.upload_create`; the file inputs here only
render them (with ``multiple`` where a role takes several files).
"""

from __future__ import annotations

from django import forms

from catalog.models import JudgmentSource
from catalog.models.sources import SOURCE_NAME_MAX_LENGTH
from evaluation.core.ordered_groups.quicksort import DEFAULT_MARGIN
from ingest.importers.groups import MAX_MARGIN
from ingest.models import Upload
from ingest.services.uploads import ROLES


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one input (Django's recipe): each is cleaned as a file."""

    def clean(self, data, initial=None):
        if isinstance(data, list | tuple):
            return [super(MultipleFileField, self).clean(item, initial) for item in data]
        return super().clean(data, initial)


class UploadForm(forms.Form):
    """File inputs for the kind's roles; subclasses add its options."""

    kind = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        files = {}
        for role in ROLES[self.kind]:
            accept = ",".join(s for s in role.suffixes if s)
            widget = MultipleFileInput if role.many else forms.ClearableFileInput
            field = MultipleFileField if role.many else forms.FileField
            files[role.name] = field(
                label=role.label, required=False,
                widget=widget(attrs={} if role.text else {"accept": accept}),
            )  # fmt: skip
        self.fields = {**files, **self.fields}
        for field in self.fields.values():
            if isinstance(field, forms.ChoiceField) and field.initial:
                field.required = False  # left out: the default (a careless client, an API script)

    def next_page(self, upload: Upload) -> str | None:
        """Where the organiser goes once the files are stored, before the import's job
        starts (``None``: the job starts at once and its page follows it)."""
        return None

    def options(self) -> dict:
        """The cleaned options (not the files), as the upload stores them; a choice left
        empty is its default."""
        roles = {role.name for role in ROLES[self.kind]}
        return {
            name: value if value not in ("", None) else (self.fields[name].initial or "")
            for name, value in self.cleaned_data.items()
            if name not in roles
        }


class ClipsUploadForm(UploadForm):
    kind = Upload.CLIPS


class RunsUploadForm(UploadForm):
    kind = Upload.RUNS
    format = forms.ChoiceField(
        choices=[("auto", "decide from the first line"),
                 ("trec", "TREC run: qid Q0 docid rank score tag"),
                 ("ranked", "ranked lists: system query doc")],
        initial="auto", label="Format",
    )  # fmt: skip
    create_missing_queries = forms.BooleanField(
        required=False, initial=True,
        label="Make query ids that name clips into queries (untick to refuse a run whose "
        "queries are not queries yet)",
    )  # fmt: skip
    create_missing_clips = forms.BooleanField(
        required=False, label="Create clips (without audio) for unknown document ids"
    )
    replace = forms.BooleanField(
        required=False, label="Replace a system's ranked list that differs from the file's"
    )


def _source_field(help_text: str) -> forms.CharField:
    return forms.CharField(
        max_length=SOURCE_NAME_MAX_LENGTH, required=False, label="Judgment source",
        help_text=help_text,
    )  # fmt: skip


def _status_field(initial: str, help_text: str) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=JudgmentSource.STATUSES, initial=initial, label="A new source",
        help_text=help_text,
    )  # fmt: skip


def _replace_field(what: str) -> forms.BooleanField:
    return forms.BooleanField(
        required=False, label=f"Let the file change {what} this source already holds"
    )


class JudgmentsUploadForm(UploadForm):
    kind = Upload.JUDGMENTS
    format = forms.ChoiceField(
        choices=[("auto", "decide from the first line"),
                 ("qrels", "TREC qrels: qid iter docno rel"),
                 ("fine", "query doc fine [broad]")],
        initial="auto", label="Format",
    )  # fmt: skip
    scale = forms.ChoiceField(
        choices=[("", "Broad for qrels, Fine for query doc fine"), ("fine", "Fine (0–100)"),
                 ("broad", "Broad (0–2)")],
        required=False, label="Scale of the one relevance column",
    )  # fmt: skip
    source = _source_field(
        "The name the judgments are kept under (default: the file's name). An import never "
        "changes another source's judgments."
    )
    status = _status_field(
        JudgmentSource.OFFICIAL, "A pilot's judgments are left out of the results."
    )
    create_missing_queries = forms.BooleanField(
        required=False, initial=True,
        label="Make query ids that name clips into queries (untick to refuse judgments of "
        "queries the runs have not made yet)",
    )  # fmt: skip
    create_missing_clips = forms.BooleanField(
        required=False, label="Create clips (without audio) for unknown document ids"
    )
    replace = _replace_field("judgments")


class GroupsUploadForm(UploadForm):
    kind = Upload.GROUPS
    source = _source_field(
        "The name the groups are kept under (default: the name on each line of the file). "
        "An import never changes another source's groups."
    )
    status = _status_field(JudgmentSource.OFFICIAL, "A pilot's groups are left out of the results.")
    replace = _replace_field("groups")


class PairwiseUploadForm(UploadForm):
    kind = Upload.PAIRWISE
    source = _source_field("The name the groups are kept under (default: the file's name).")
    margin = forms.IntegerField(
        min_value=1, max_value=MAX_MARGIN, initial=DEFAULT_MARGIN, required=False,
        label="Margin of votes",
        help_text="How many more votes one clip needs than the other to be placed above it "
        f"(the study of Urbano and colleagues used {DEFAULT_MARGIN}).",
    )  # fmt: skip
    status = _status_field(
        JudgmentSource.PILOT,
        "A pilot (the default) is kept and shown, and left out of the results, so you can "
        "compare it with the ground truth you hold first.",
    )
    replace = _replace_field("groups")


class MirexUploadForm(UploadForm):
    kind = Upload.MIREX


UPLOAD_FORMS: dict[str, type[UploadForm]] = {
    form.kind: form
    for form in (ClipsUploadForm, RunsUploadForm, JudgmentsUploadForm, GroupsUploadForm,
                 PairwiseUploadForm, MirexUploadForm)
}  # fmt: skip
"""The form of each kind of upload; the apps above add theirs
(:func:`ingest.kinds.upload_kind_register`)."""
