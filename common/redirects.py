"""Where a page sends a person back to when the request names it (``next``, ``back``).

A form that returns to the page it was on (a worker's controls, a restore from the trash,
the delete confirmation's "Keep it", the login) carries that page in a field the browser
sends — so anyone can write anything there. Every such target goes through
:func:`local_path`: only a path of this site (``/…``) is followed; anything else — another
site (``https://evil.example/phish``, ``//evil.example``, ``/\\evil.example``), a
``javascript:`` link, a bare word (which Django's ``redirect`` took for the name of a
URL and failed on with a 500), a control character — is replaced by the page's own
default (issue 28, item 4).
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.shortcuts import redirect, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme

MAX_LENGTH = 2000
"""No link of Earshot is longer (a crawler's or an attacker's longer text is refused)."""


def local_path(target) -> str | None:
    """``target`` if it is a path of this site, else ``None``.

    >>> local_path("/campaigns/3/workers/?page=2")
    '/campaigns/3/workers/?page=2'
    >>> [local_path(t) for t in ("https://evil.example/x", "//evil.example", "/\\\\evil", "word")]
    [None, None, None, None]
    >>> local_path("javascript:alert(1)") is None
    True
    """
    if not isinstance(target, str) or not target.startswith("/") or len(target) > MAX_LENGTH:
        return None
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in target):
        return None
    # no host at all is allowed: "//host" and "/\host" (a host to some browsers) are refused
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=set()) or target[1:2] in (
        "/",
        "\\",
    ):
        return None
    return target


def redirect_back(target, default, *args):
    """A redirect to ``target`` if it is a path of this site (:func:`local_path`), else to
    ``default`` (a URL name with ``args``, a model or a path, as for ``redirect``)."""
    path = local_path(target)
    return redirect(path) if path else redirect(default, *args)


def back_link(target, default) -> str:
    """A link back for a page to show (the delete confirmation's "Keep it"): ``target`` if
    it is a path of this site, else ``default`` (a model, URL name or path)."""
    return local_path(target) or resolve_url(default)


class LoginView(auth_views.LoginView):
    """Django's login page, going on to ``next`` only if it is a path of this site."""

    def get_redirect_url(self):
        return local_path(self.request.POST.get("next", self.request.GET.get("next"))) or ""


class LogoutView(auth_views.LogoutView):
    """Django's logout, going on to ``next`` only if it is a path of this site."""

    def get_redirect_url(self):
        return local_path(self.request.POST.get("next", self.request.GET.get("next"))) or ""
