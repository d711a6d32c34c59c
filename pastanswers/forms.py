"""The forms of an upload of past preference answers (the kind this app adds to the upload
pages: :func:`ingest.kinds.upload_kind_register`): its options, and the column mapping
of a CrowdFlower export."""

from __future__ import annotations

from django import forms
from django.urls import reverse

from ingest.forms import UploadForm
from ingest.models import Upload
from pastanswers.importers.crowdflower import CHOICES, LISTS, ColumnMapping, MappingError

ANSWER_LABELS = {
    "a_better": "A is better",
    "b_better": "B is better",
    "both_good": "both good",
    "both_bad": "both bad",
}


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

    def next_page(self, upload: Upload) -> str | None:
        """A CrowdFlower export's columns are chosen first (:func:`pastanswers.views.upload_columns`)."""
        if upload.options.get("format") == "crowdflower":
            return reverse("pastanswers:upload_columns", args=[upload.collection_id, upload.pk])
        return None


LIST_WORDS = {
    "list_a": "List A", "list_b": "List B", "fine_a": "Fine judgments of list A",
    "fine_b": "Fine judgments of list B", "broad_a": "Broad judgments of list A",
    "broad_b": "Broad judgments of list B",
}  # fmt: skip
"""What each list column of the answers CSV is, in words."""


class ColumnMappingForm(forms.Form):
    """Which export column gives each column of the documented CSV (see
    :mod:`pastanswers.importers.crowdflower`), prefilled with the remembered or guessed mapping."""

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
