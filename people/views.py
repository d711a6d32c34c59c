"""People: organisers create assessor accounts and invitation links; invited people set a password.

The invitation page is public (the link is the credential): it never says more than
whether the link works, sets no cookie before the password is chosen, and is neither
cached nor sent on as a referrer to other sites.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from common.error_pages import gone
from common.roles import organiser_required
from common.throttles import login_throttled
from people.forms import PasswordSetForm, PersonForm
from people.selectors import (
    campaigns_for_assessors,
    invitation_for_token,
    people_for_organiser,
    person_for_organiser,
)
from people.services import (
    InvitationGone,
    invitation_accept,
    invitation_create,
    invitation_email_send,
    person_create,
)


def _show_link(request, new) -> None:
    """E-mail the new link when the person has an address, and keep it for the next page
    only, to copy (it is never stored in the clear)."""
    url = request.build_absolute_uri(new.path)
    request.session["new_invitation"] = {
        "username": new.invitation.user.username,
        "url": url,
        "expires_at": new.invitation.expires_at.isoformat(),
        "emailed_to": invitation_email_send(new=new, url=url, by=request.user),
    }


@require_http_methods(["GET", "POST"])
@organiser_required
def people(request):
    form = PersonForm(request.POST or None, can_create_organisers=request.user.is_superuser)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            person = person_create(
                created_by=request.user, username=data["username"], email=data["email"],
                role=data["role"], password=data["password"],
            )  # fmt: skip
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if data["password"]:
                messages.success(request, f"{person.username} can log in with that password.")
            else:
                _show_link(request, invitation_create(user=person, created_by=request.user))
            return redirect("people:people")
    context = {
        "form": form,
        "people": people_for_organiser(user=request.user),
        "new_invitation": request.session.pop("new_invitation", None),
        "campaigns": campaigns_for_assessors(user=request.user),
    }
    return render(request, "people/people.html", context)


@require_POST
@organiser_required
def invitation_new(request, user_pk: int):
    """A fresh link for someone (it also resets a forgotten password); older links stop.
    Only for the organiser who made the account (:func:`person_for_organiser`)."""
    person = person_for_organiser(user=request.user, person_id=user_pk)
    _show_link(request, invitation_create(user=person, created_by=request.user))
    return redirect("people:people")


@require_http_methods(["GET", "POST"])
@never_cache
@login_throttled
def invitation(request, token: str):
    found = invitation_for_token(token=token)
    if found is None:
        return render(request, "people/invitation_unknown.html", status=404)
    if not found.is_usable():
        return gone(
            request,
            title="This invitation link no longer works",
            message="It was used already, replaced by a newer link, or it has expired.",
            what_to_do="If you set your password with it, log in. Otherwise ask the organiser "
            "who invited you for a new link.",
        )
    form = PasswordSetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = invitation_accept(invitation=found, password=form.cleaned_data["password1"])
        except ValidationError as error:
            form.add_error("password1", error)
        except InvitationGone:
            return redirect(request.path)  # someone else used it a moment ago: say so
        else:
            login(request, user, backend="people.auth_backend.CanonicalUsernameBackend")
            messages.success(request, f"Welcome, {user.username}: your password is set.")
            return redirect("home")
    response = render(request, "people/invitation.html", {"form": form, "person": found.user})
    response["Referrer-Policy"] = "same-origin"  # no-referrer would make the POST's Origin null
    return response
