"""The upload pages' forms: the options of each kind of upload, and the column mapping.

The files themselves are read from ``request.FILES`` by role (:data:`ingest.services.uploads.ROLES`)
and checked by :func:`ingest.services.uploads.upload_create`; the file inputs here only
render them (with ``multiple`` where a role takes several files).
"""

from __future__ import annotations

from django import forms

from catalog.models import JudgmentSource
from catalog.models.sources import SOURCE_NAME_MAX_LENGTH
from crowd.importers.crowdflower import CHOICES, LISTS, ColumnMapping, MappingError
from ingest.models import Upload
from ingest.services.uploads import ROLES

ANSWER_LABELS = {
    "a_better": "A is better",
    "b_better": "B is better",
    "both_good": "both good",
    "both_bad": "both bad",
}


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
    source = forms.CharField(
        max_length=SOURCE_NAME_MAX_LENGTH, required=False, label="Judgment source",
        help_text="The name the judgments are kept under (default: the file's name). An import "
        "never changes another source's judgments.",
    )  # fmt: skip
    status = forms.ChoiceField(
        choices=JudgmentSource.STATUSES, initial=JudgmentSource.OFFICIAL,
        label="A new source", help_text="A pilot's judgments are left out of the results.",
    )  # fmt: skip
    create_missing_queries = forms.BooleanField(
        required=False, initial=True,
        label="Make query ids that name clips into queries (untick to refuse judgments of "
        "queries the runs have not made yet)",
    )  # fmt: skip
    create_missing_clips = forms.BooleanField(
        required=False, label="Create clips (without audio) for unknown document ids"
    )
    replace = forms.BooleanField(
        required=False, label="Let the file change judgments this source already holds"
    )


class MirexUploadForm(UploadForm):
    kind = Upload.MIREX


class AnswersUploadForm(UploadForm):
    kind = Upload.ANSWERS
    format = forms.ChoiceField(
        choices=[("earshot", "Earshot's answers CSV (its columns are described above)"),
                 ("crowdflower", "a CrowdFlower / Appen job export: choose its columns next")],
        initial="earshot", widget=forms.RadioSelect, label="The file is",
    )  # fmt: skip
    campaign = forms.CharField(
        max_length=200, required=False, label="Campaign",
        help_text="The preference campaign the answers go into (created if needed; default "
        "“Imported: <file name>”).",
    )  # fmt: skip
    create_missing_clips = forms.BooleanField(
        required=False, initial=True,
        label="Create the clips the answers name that the collection lacks (no audio needed)",
    )  # fmt: skip
    replace = forms.BooleanField(
        required=False, label="Let the file change judgments an earlier import of it gave"
    )


UPLOAD_FORMS: dict[str, type[UploadForm]] = {
    form.kind: form
    for form in (ClipsUploadForm, RunsUploadForm, JudgmentsUploadForm, MirexUploadForm,
                 AnswersUploadForm)
}  # fmt: skip


LIST_WORDS = {
    "list_a": "List A", "list_b": "List B", "fine_a": "Fine judgments of list A",
    "fine_b": "Fine judgments of list B", "broad_a": "Broad judgments of list A",
    "broad_b": "Broad judgments of list B",
}  # fmt: skip
"""What each list column of the answers CSV is, in words."""


class ColumnMappingForm(forms.Form):
    """Which export column gives each column of the documented CSV (see
    :mod:`crowd.importers.crowdflower`), prefilled with the remembered or guessed mapping."""

    def __init__(self, *args, header: list[str], values: list[str], initial: ColumnMapping,
                 **kwargs):  # fmt: skip
        super().__init__(*args, **kwargs)
        self.header, self.values = header, values
        columns = [("", "—")] + [(c, c) for c in header]
        single = {
            "query": ("Query", True), "answer": ("Answer", True), "worker": ("Worker", True),
            "answered_at": ("Answered at", False), "started_at": ("Started at (gives seconds)", False),
            "comment": ("Comment", False),
        }  # fmt: skip
        for name, (label, required) in single.items():
            self.fields[name] = forms.ChoiceField(
                choices=columns, required=required, label=label, initial=getattr(initial, name)
            )
        for name in LISTS:
            self.fields[name] = forms.CharField(
                required=name in ("list_a", "list_b"), label=f"{LIST_WORDS[name]} (columns, best first)",
                initial=" ".join(getattr(initial, name)),
            )  # fmt: skip
        self.fields["skip_when_true"] = forms.MultipleChoiceField(
            choices=[(c, c) for c in header], required=False, widget=forms.CheckboxSelectMultiple,
            label="Leave out rows where this column is true", initial=initial.skip_when_true,
        )  # fmt: skip
        answer_choices = [("", "—")] + [(c, ANSWER_LABELS[c]) for c in CHOICES]
        for number, value in enumerate(values):
            self.fields[f"value_{number}"] = forms.ChoiceField(
                choices=answer_choices, required=False, label=f"Answer “{value}” means",
                initial=initial.answer_values.get(value, ""),
            )  # fmt: skip

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        mapping = {name: data.get(name, "") for name in
                   ("query", "answer", "worker", "answered_at", "started_at", "comment")}  # fmt: skip
        for name in LISTS:
            mapping[name] = data.get(name, "").replace(",", " ").split()
        mapping["skip_when_true"] = list(data.get("skip_when_true", []))
        mapping["answer_values"] = {
            value: data.get(f"value_{number}", "") for number, value in enumerate(self.values)
        }
        unmapped = [v for v, choice in mapping["answer_values"].items() if not choice]
        try:
            self.mapping = ColumnMapping.from_dict(mapping)
            self.mapping.check(self.header)
        except MappingError as error:
            for problem in error.problems:
                self.add_error(None, problem)
        if unmapped:
            self.add_error(None, f"Say what the answer(s) {', '.join(unmapped)} mean.")
        return data
