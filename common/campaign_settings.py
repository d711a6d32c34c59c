"""Settings of a campaign of either kind after it started: what both kinds' checks, forms
and pages share.

Every change is checked first, with a message saying what is wrong and what to do, and
written in one transaction; each kind lists what may change and checks what involves
several fields (:mod:`crowd.services.settings`, :mod:`relevance.services.settings`).
Here: the checks of texts a person typed (:func:`text_errors`), each changed field
checked on its own by the model (:func:`settings_checked`), opening and closing
(:func:`is_open_set`), the form that puts a service's messages beside their fields
(:class:`SettingsForm`) and the settings page and open/close button
(:func:`settings_page`, :func:`open_set_page`).
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render


def printable(text: str, *, allowed: str = "") -> bool:
    """No control or format character in ``text`` but those ``allowed``."""
    return not any(unicodedata.category(c) in ("Cc", "Cf") and c not in allowed for c in text or "")


def text_errors(values: dict) -> dict[str, str]:
    """What is wrong with the texts among ``values`` (a name, instructions, codes)."""
    errors: dict[str, str] = {}
    if "name" in values:
        if not (values["name"] or "").strip():
            errors["name"] = "Give the campaign a name."
        elif not printable(values["name"]):
            errors["name"] = "The name has a control character; type it again."
    for field in ("instructions", "consent_text"):
        if field in values and not printable(values[field], allowed="\n\r\t"):
            errors[field] = "This text has a control character; type it again."
    for field in ("completion_code", "screen_out_code"):
        code = values.get(field)
        if field in values and not (code or "").strip():
            errors[field] = "Give a code (the platform checks it)."
        elif field in values and (not printable(code) or any(c.isspace() for c in code)):
            errors[field] = "A code has no spaces or control characters."
    return errors


def settings_checked(campaign, changes: dict, settings: tuple[str, ...]) -> dict:
    """Every setting with the changes, each checked on its own by the model's field
    (type, range, length); a :class:`ValidationError` by field if one is wrong."""
    unknown = sorted(set(changes) - set(settings))
    if unknown:
        raise ValidationError(f"These settings cannot be changed: {', '.join(unknown)}.")
    draft = copy.copy(campaign)
    for field, value in changes.items():
        setattr(draft, field, value)
    words = text_errors({f: v for f, v in changes.items() if isinstance(v, str)})
    if words:  # said as a person would, before the fields' generic checks say it otherwise
        raise ValidationError(words)
    others = [f.name for f in campaign._meta.fields if f.name not in changes]
    draft.clean_fields(exclude=others)
    return {field: getattr(draft, field) for field in settings}


def is_open_set(campaign, *, is_open: bool) -> bool:
    """Close or reopen ``campaign`` in the database; ``True`` if it changed (a second
    request at the same instant changes nothing). The caller's transaction holds it."""
    changed = type(campaign).objects.filter(pk=campaign.pk).exclude(is_open=is_open)
    if not changed.update(is_open=is_open):
        return False
    campaign.is_open = is_open
    return True


class SettingsForm(forms.ModelForm):
    """Adds the service's checks as errors beside their fields, before the model's
    constraints would say the same in the database's words."""

    KEPT_WHEN_EMPTY: tuple[str, ...] = ()
    """Left empty (a form from before the field, an API client), these keep their value."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.KEPT_WHEN_EMPTY:
            self.fields[name].required = False

    def settings_errors(self, values: dict) -> dict[str, str]:
        raise NotImplementedError

    def clean(self):
        for name in self.KEPT_WHEN_EMPTY:
            if self.cleaned_data.get(name) in (None, ""):
                self.cleaned_data[name] = getattr(self.instance, name)
        data = super().clean()
        if all(f in data for f in self.fields):  # each field shown is valid on its own
            values = {f: getattr(self.instance, f) for f in self._meta.fields} | data
            for field, message in self.settings_errors(values).items():
                self.add_error(field, message)
        return data


def settings_page(request, *, campaign, form_class, update, template):
    """A campaign's settings page: the form, then ``update`` (the kind's service) with
    the changed fields; its refusal beside the form, else "Saved: …" and the page again."""
    form = form_class(request.POST or None, instance=campaign)
    if request.method == "POST" and form.is_valid():
        changes = {field: form.cleaned_data[field] for field in form.changed_data}
        campaign.refresh_from_db()  # the form's validation wrote into the instance
        try:
            changed = update(campaign=campaign, changes=changes)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            saved = ", ".join(form.fields[f].label or f for f in changed) or "nothing changed"
            messages.success(request, f"Saved: {saved}.")
            return redirect(request.path)
    return render(request, template, {"campaign": campaign, "form": form})


def open_set_page(request, campaign, *, open_set: Callable[..., bool], settings_page: str):
    """The open/close button of a settings page: ``open_set`` (the kind's service), its
    refusal or the new state said, back to the settings page."""
    is_open = request.POST.get("is_open") == "1"
    try:
        changed = open_set(campaign=campaign, is_open=is_open)
    except ValidationError as refused:  # a preference campaign's trap pools are too small
        messages.error(request, " ".join(refused.messages))
        return redirect(settings_page, campaign.pk)
    if changed:
        messages.success(request, f"“{campaign}” is {'open' if is_open else 'closed'}.")
    return redirect(settings_page, campaign.pk)
