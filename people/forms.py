"""Forms of the people pages: a new account, and setting a password from an invitation."""

from __future__ import annotations

from django import forms
from django.contrib.auth import password_validation

from common.roles import ASSESSOR, ORGANISER


class PersonForm(forms.Form):
    username = forms.CharField(max_length=150)
    email = forms.EmailField(required=False, label="Email (optional)")
    role = forms.ChoiceField(choices=[(ASSESSOR, "assessor"), (ORGANISER, "organiser")])
    how = forms.ChoiceField(
        label="How they get in",
        choices=[
            ("invite", "an invitation link: they choose their password"),
            ("password", "a password I choose now"),
        ],
        initial="invite",
        widget=forms.RadioSelect,
    )
    password = forms.CharField(
        required=False,
        label="Password (if you choose it)",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args, can_create_organisers: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not can_create_organisers:
            self.fields["role"].choices = [(ASSESSOR, "assessor")]
            self.fields["role"].widget = forms.HiddenInput()
            self.fields["role"].initial = ASSESSOR

    def clean(self):
        data = super().clean()
        if data.get("how") == "password" and not data.get("password"):
            self.add_error("password", "Type the password, or choose an invitation link.")
        if data.get("how") == "invite":
            data["password"] = None
        return data


class PasswordSetForm(forms.Form):
    password1 = forms.CharField(
        label="New password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="The same password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", "The two passwords differ.")
        return data
