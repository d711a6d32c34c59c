"""Reading JSON request bodies: bad JSON, however nested, is a 400 and never a 500.

``json.loads`` raises ``RecursionError`` (not ``ValueError``) on a body such as 5,000
``[``: every view and API reading JSON goes through :func:`json_body` or
:class:`JSONParser` (the REST API's parser, ``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``),
which turn every way JSON can be bad into one error.
"""

from __future__ import annotations

import json

from rest_framework import parsers, renderers
from rest_framework.exceptions import ParseError


class BadJson(ValueError):
    """The body is not JSON this server reads (malformed, nested too deeply, not UTF-8)."""


def json_body(raw: bytes | str) -> object:
    """The JSON value of ``raw``, or :class:`BadJson` saying why not.

    >>> json_body(b'{"a": [1]}')
    {'a': [1]}
    >>> json_body(b"[" * 5000)
    Traceback (most recent call last):
    ...
    common.json_body.BadJson: JSON nested too deeply
    """
    try:
        return json.loads(raw)
    except RecursionError:
        raise BadJson("JSON nested too deeply") from None
    except (ValueError, TypeError) as error:  # UnicodeDecodeError is a ValueError
        raise BadJson(f"not JSON ({error})") from None


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with a 400 for JSON nested too deeply as for any other bad JSON."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None


class JSONRenderer(renderers.JSONRenderer):
    """The API's JSON out: as DRF writes it, but a lone surrogate (``"\\ud800"``, which a
    client can send and an error message then quotes back, e.g. DRF's "is not a valid
    choice") is written as its ``\\ud800`` escape instead of failing to encode — a 500."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            self.ensure_ascii = True  # this instance only: JSON escapes every non-ASCII character
            return super().render(data, accepted_media_type, renderer_context)
