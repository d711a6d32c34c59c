"""Static files as production collects them (``DEBUG`` off: ``config.storage.StaticFiles``).

The assignment and ranking pages are ES modules that import their way of saving
(``relevance/static/relevance/save_json.js``). Collected, each is stored under a
content-hashed name that browsers keep for a year, so the import must name the hashed
file as well: otherwise a page would keep running a stale copy of the module it imports
after an upgrade changed it.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_collected_pages_import_the_hashed_module_they_share(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DEBUG"}}
    env.update(
        DEBUG="false", SECRET_KEY="k" * 50, ALLOWED_HOSTS="earshot.example.org",
        STATIC_ROOT=str(tmp_path / "static"), EARSHOT_VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="config.settings",
    )  # fmt: skip
    done = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    static = tmp_path / "static"
    paths = json.loads((static / "staticfiles.json").read_text())["paths"]
    shared = paths["relevance/save_json.js"]
    assert re.fullmatch(r"relevance/save_json\.[0-9a-f]{12}\.js", shared)
    for page in ("relevance/assignment.js", "relevance/ranking.js"):
        text = (static / paths[page]).read_text()
        assert f'from "./{shared.rsplit("/", 1)[1]}"' in text, page
        assert 'from "./save_json.js"' not in text, page
