"""Where static files go in production (``DEBUG`` off): whitenoise's compressed files with
content-hashed names, ES module imports included.

A page's module that imports another (``import … from "./save_json.js"``) must name the
hashed file too, or a browser would keep a stale copy of the imported one for a year;
Django rewrites those imports when asked (``support_js_module_import_aggregation``).
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFiles(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
