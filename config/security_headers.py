"""The Content-Security-Policy every page is served with: only what Earshot's pages load.

Every script is a file under ``static/`` (no inline script, no ``eval``); data for a
page's script is a ``json_script`` block, which the browser does not run. Audio, images,
styles and fetches come from this server alone; no page may be framed. The policy is
``EARSHOT_CSP`` (:data:`DEFAULT_POLICY` unless set; an empty value sends none). A
response that sets only ``frame-ancestors`` (the crowd's task pages, framed by Mechanical
Turk) gets the rest of the policy with its own framing rule; one that sets a whole policy
keeps it.
"""

from __future__ import annotations

from django.conf import settings

DEFAULT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "media-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'self'; frame-ancestors 'none'"
)


class ContentSecurityPolicy:
    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = settings.EARSHOT_CSP

    def __call__(self, request):
        response = self.get_response(request)
        own = response.get("Content-Security-Policy")
        if not self.policy:
            return response
        if own is None:
            response["Content-Security-Policy"] = self.policy
        elif own.strip().startswith("frame-ancestors") and ";" not in own:
            # a page that may be framed (the crowd's task pages, inside Mechanical Turk)
            # says only by whom: the rest of the policy stays
            kept = [d for d in self.policy.split("; ") if not d.startswith("frame-ancestors")]
            response["Content-Security-Policy"] = "; ".join([*kept, own.strip()])
        return response
