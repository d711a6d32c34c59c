from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError

from common.usernames import username_canonical, username_problem, username_taken_message
from people.models import Invitation


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Who was invited and when; the link itself is never stored, so it cannot be shown."""

    list_display = ["user", "created_by", "created_at", "expires_at", "used_at"]
    readonly_fields = ["user", "token_hash", "created_by", "created_at", "expires_at"]


class _CanonicalUsername:
    """The admin's user forms store the canonical form of the name typed and refuse a name
    another account has in any spelling, with the People page's message
    (:mod:`common.usernames`), instead of failing when the account is saved."""

    def clean_username(self):
        typed = self.cleaned_data.get("username") or ""
        canonical = username_canonical(typed)
        problem = username_problem(canonical)
        if problem:
            raise ValidationError(problem[0].upper() + problem[1:] + ".")
        if self.instance.pk is not None and typed == self.instance.username:
            return typed  # unchanged (an old lookalike name stays until it is renamed)
        other = get_user_model().objects.filter(username=canonical).exclude(pk=self.instance.pk)
        if other.exists():
            raise ValidationError(username_taken_message(typed, canonical))
        return canonical


class CanonicalUserCreationForm(_CanonicalUsername, AdminUserCreationForm):
    pass


class CanonicalUserChangeForm(_CanonicalUsername, UserChangeForm):
    pass


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class UserAdmin(auth_admin.UserAdmin):
    add_form = CanonicalUserCreationForm
    form = CanonicalUserChangeForm
