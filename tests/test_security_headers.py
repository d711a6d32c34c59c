"""Headers every page is served with (issue 20, item 5): a Content-Security-Policy that
allows only what the pages load, and HSTS on HTTPS when ``DEBUG`` is off."""

from __future__ import annotations

import pytest

from config.security_headers import DEFAULT_POLICY

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/login/", "/", "/api/docs/", "/t/nope/", "/no/such/page/"])
def test_every_page_carries_the_policy(client, path):
    response = client.get(path)
    assert response["Content-Security-Policy"] == DEFAULT_POLICY
    assert "script-src 'self';" in DEFAULT_POLICY and "unsafe-inline" not in DEFAULT_POLICY


EARLY = {
    "a control character's 400": ("/login/?x=%00", {}, 400),
    "the API's control-character 400": ("/api/collections/?q=%00", {}, 400),
    "a host not allowed": ("/login/", {"HTTP_HOST": "evil.example"}, 400),
    "a static file": ("/static/crowd/task.js", {}, 200),
}


@pytest.mark.parametrize("case", EARLY, ids=list(EARLY))
def test_answers_given_before_any_view_carry_every_security_header(client, settings, case):
    """Issue 28, item 5: the 400 of the control-character filter and static files carried no
    policy and no X-Frame-Options, since those headers were added by middleware inside
    the one that answered. Static files are served from the source folders here
    (whitenoise's finders), as ``make run`` serves them."""
    settings.WHITENOISE_USE_FINDERS = settings.WHITENOISE_AUTOREFRESH = True
    path, headers, status = EARLY[case]
    response = client.get(path, **headers)
    assert response.status_code == status
    assert response["Content-Security-Policy"] == DEFAULT_POLICY
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_no_template_holds_an_inline_script_or_style():
    """The policy forbids them; a template that had one would be broken in production."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "templates"
    inline = re.compile(
        r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>|<style|\son\w+=\"|\sstyle=\""
    )
    found = [
        f"{path.relative_to(root)}: {match.group(0)}"
        for path in root.rglob("*.html")
        for match in inline.finditer(path.read_text())
    ]
    assert not found, found


def test_hsts_is_sent_over_https_when_debug_is_off(client, settings):
    settings.SECURE_HSTS_SECONDS = 31_536_000  # what DEBUG=false gives (config/settings.py)
    secure = client.get("/login/", secure=True)
    assert secure["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in client.get("/login/")  # never over plain HTTP
