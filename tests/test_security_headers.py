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
