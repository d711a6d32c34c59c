"""The collection page with 100,000 clips: pages of 50 and prefix searches, against the old page.

Builds a throwaway database (SQLite in a temporary folder, or the PostgreSQL server of
``DATABASE_URL``) holding one collection of ``--clips`` clips (ids ``clip000000`` …,
titles of two words from 16 and a number, 5,000 artists; seed 1), 100 queries and 18
systems, then requests, as a logged-in organiser through Django's test client (the
whole view and template, no network):

- page 1, a page in the middle and the last page of the clips;
- searches whose prefix matches many clips ("amber": ~6 %), a few ("clip0123": 100)
  and none ("zzz");
- the queries and the systems tabs;

each the median of ``--repeat`` requests, with the response size and its SQL queries.
For comparison, the page before this change (``main``'s template, read with ``git
show``) rendered with every clip of the collection: the issue measured it at ~1 MB and
1.5 s for MIREX's 7,023 clips.

Run: ``python benchmarks/bench_collection_page.py [--clips 100000] [--repeat 5]``
(``DATABASE_URL=postgresql://… `` to measure on PostgreSQL; the tables are dropped after).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
if "DATABASE_URL" not in os.environ:
    os.environ["EARSHOT_VAR_DIR"] = tempfile.mkdtemp(prefix="earshot-bench-")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.template import engines  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from catalog.models import Clip, Collection, Query, System  # noqa: E402
from common.roles import ORGANISER, grant_role  # noqa: E402

WORDS = ["amber", "borrowed", "copper", "distant", "evening", "folded", "golden", "hidden", "idle", "jade", "lantern", "midnight", "northern", "paper", "quiet", "silver"]  # fmt: skip


def build(n_clips: int):
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.create_user("bench", password="x" * 12)
    grant_role(owner, ORGANISER)
    collection = Collection.objects.create(name="Bench", owner=owner)
    rng = random.Random(1)
    Clip.objects.bulk_create(
        (Clip(collection=collection, external_id=f"clip{i:06d}",
              title=f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS).capitalize()} {i}",
              artist=f"Artist {rng.randrange(5000)}", genre=rng.choice(["Rock", "Jazz", "Pop"]),
              audio_token=f"bench-{i}")
         for i in range(n_clips)),
        batch_size=5000,
    )  # fmt: skip
    clips = list(collection.clips.order_by("pk")[:100])
    Query.objects.bulk_create(Query(collection=collection, clip=c) for c in clips)
    System.objects.bulk_create(System(collection=collection, name=f"S{i:02d}") for i in range(18))
    return owner, collection


def measure(client: Client, url: str, repeat: int) -> tuple[float, int, int]:
    times = []
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(times), len(response.content), len(queries.captured_queries)


def old_page(collection, repeat: int) -> tuple[float, int]:
    """``main``'s collection page: every clip, query and system rendered at once."""
    source = subprocess.run(
        ["git", "show", "main:catalog/templates/catalog/collection_detail.html"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    template = engines["django"].from_string(source)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        context = {
            "collection": collection,
            "clips": collection.clips.order_by("external_id"),
            "queries": collection.queries.select_related("clip"),
            "systems": collection.systems.all(),
        }
        html = template.render(context)
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(html.encode())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    setup_test_environment()
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    owner, collection = build(args.clips)
    print(
        f"{connection.vendor}: {args.clips:,} clips built in {time.perf_counter() - started:.1f} s"
    )
    if connection.vendor == "postgresql":
        # What autovacuum does within minutes of an import: statistics, and a visibility
        # map so that counts read the index alone.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE judging_clip")
    client = Client()
    client.force_login(owner)
    base = f"/collections/{collection.pk}/"
    last = (args.clips + 49) // 50
    rows = [
        ("clips, page 1", base),
        (f"clips, page {last // 2:,}", f"{base}?page={last // 2}"),
        (f"clips, last page ({last:,})", f"{base}?page={last}"),
        ('search "amber" (many)', f"{base}?q=amber"),
        ('search "clip0123" (100)', f"{base}?q=clip0123"),
        ('search "zzz" (none)', f"{base}?q=zzz"),
        ("queries tab", f"{base}?show=queries"),
        ("systems tab", f"{base}?show=systems"),
    ]
    client.get(base)  # warm the session and the template cache
    print(f"{'request':32s} {'median ms':>10s} {'KB':>8s} {'SQL':>4s}")
    for label, url in rows:
        seconds, size, queries = measure(client, url, args.repeat)
        print(f"{label:32s} {seconds * 1000:10.1f} {size / 1024:8.1f} {queries:4d}")
    seconds, size = old_page(collection, max(1, args.repeat // 2))
    print(f"{'before: every clip at once':32s} {seconds * 1000:10.1f} {size / 1024:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
