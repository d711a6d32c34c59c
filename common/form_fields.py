"""Form fields that choose rows by id: :func:`common.validation.parse_id`'s rule first.

Django's model choice fields hand a posted id to a query as it came: a number past
``bigint`` (``99999999999999999999``) then makes SQLite raise ``OverflowError`` and
PostgreSQL a ``DataError`` — a 500. These refuse it as an invalid choice instead, on
both databases alike. Every form that chooses rows uses them (for a ``ModelForm``'s
foreign keys and many-to-many fields, through ``Meta.field_classes``).
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from common.validation import parse_id


class IdChoiceField(forms.ModelChoiceField):
    def to_python(self, value):
        if value in self.empty_values or isinstance(value, self.queryset.model):
            return super().to_python(value)
        if parse_id(str(value)) is None:
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class IdMultipleChoiceField(forms.ModelMultipleChoiceField):
    def _check_values(self, value):
        for pk in value:
            if parse_id(str(pk)) is None:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value",
                    params={"pk": pk},
                )  # fmt: skip
        return super()._check_values(value)
