"""Every page a person sees, reached the way each person reaches them (issue 31).

The plain-words check (``tests/test_plain_words.py``) reads what these walks collect:

- :func:`demo_world` seeds the demo (``demo.seed``: a collection with judgments on
  both scales, a relevance campaign with two assessors, a crowd study with a quiz and
  work trap questions, a low-cost campaign), adds a collection judged on the Broad scale
  only, with a crowd study of its own (issue 31, item 6), and computes every result in
  the foreground;
- :func:`crawl` follows the links of a logged-in person's pages, from the home page;
- :func:`worker_pages` walks crowd workers through the task link: one who finishes,
  one who declines, one who fails the quiz, an MTurk preview and finisher, one screened
  for headphones, refusals, a closed study, a cut link;
- :func:`error_pages` makes every error page a person can meet.

Each page is kept as ``(what, HTML)``; ``what`` names the person and the address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.core.files.base import ContentFile
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.urls import reverse

from catalog.models import Clip, Collection, CollectionShare
from common import error_pages as errors
from common.roles import ORGANISER
from crowd.models import PreferenceCampaign, Worker
from demo.seed import demo_seed
from relevance.models import RelevanceCampaign
from tests.helpers.audio_files import sine_wav
from tests.helpers.crowd_fixtures import right_choice, wrong_choice
from tests.helpers.crowd_http import Browser
from tests.helpers.personas import make_user
from tests.helpers.planner import statistics_update
from tests.helpers.platform_links import mturk_id, prolific_id

Pages = list[tuple[str, str]]

NOT_PAGES = ("/static/", "/admin/", "/api/", "/logout/", "/audio/", "/media/")
"""Links the crawl does not follow: files, the API, Django's admin, logging out."""
PER_SHAPE = 2
"""Pages of one shape (the address with its numbers taken out) the crawl reads: two
queries' pages say what every one does."""
DELETE = re.compile(r"/delete/(?P<kind>\w+)/")
"""A deletion's confirmation: one template for every kind, read once a kind. Each counts
what would go by deleting it in a transaction rolled back, so a whole collection's (the
demo's: 10 s on a busy machine) is left out; the template is the same."""


@dataclass
class DemoWorld:
    demo: Collection
    broad_only: Collection
    campaign: PreferenceCampaign
    broad_campaign: PreferenceCampaign
    logins: dict[str, tuple[str, str]] = field(default_factory=dict)


def demo_world(media_root) -> DemoWorld:
    """The demo (clips sharing one short tone, so workers can hear them) and a Broad-only
    collection, every result computed."""
    from demo.seed import (
        ASSESSOR_PASSWORD,
        ASSESSOR_USERNAME,
        ORGANISER_PASSWORD,
        ORGANISER_USERNAME,
        SECOND_ASSESSOR_PASSWORD,
        SECOND_ASSESSOR_USERNAME,
    )

    summary = demo_seed(audio=False)
    demo = Collection.objects.get(pk=summary.collection_id)
    tone = Clip.objects.filter(collection__owner=demo.owner).first()
    tone.audio.save("tone.wav", ContentFile(sine_wav(2.0)))
    Clip.objects.filter(collection__owner=demo.owner).update(audio=tone.audio.name, duration=2.0)
    broad_only, broad_campaign = broad_only_study(demo)
    campaign = demo.preference_campaigns.get()
    for collection in Collection.objects.all():
        call_command("recompute", "--collection", str(collection.pk), stdout=_Quiet())
    for study in PreferenceCampaign.objects.all():
        call_command("recompute", "--campaign", str(study.pk), stdout=_Quiet())
    statistics_update()  # PostgreSQL plans for the rows made here (tests/helpers/planner.py)
    reader = make_user("rita", ORGANISER)
    reader.set_password("rita-reads")
    reader.save()
    CollectionShare.objects.create(collection=demo, user=reader, access="read")
    logins = {
        "organiser": (ORGANISER_USERNAME, ORGANISER_PASSWORD),
        "read-only co-organiser": ("rita", "rita-reads"),
        "assessor": (ASSESSOR_USERNAME, ASSESSOR_PASSWORD),
        "second assessor": (SECOND_ASSESSOR_USERNAME, SECOND_ASSESSOR_PASSWORD),
    }
    return DemoWorld(demo, broad_only, campaign, broad_campaign, logins)


def broad_only_study(demo: Collection) -> tuple[Collection, PreferenceCampaign]:
    """A copy of the demo's clips, queries and runs whose judgments are Broad only (TREC
    qrels), with a crowd study of examples from the systems, answered by nobody yet."""
    from catalog.models import JudgmentSource, Query, RelevanceJudgment, RunEntry, System
    from crowd.services.campaigns import preference_campaign_create

    copy = Collection.objects.create(owner=demo.owner, name="Broad only")
    clips = {}
    for clip in demo.clips.all():
        clips[clip.pk] = Clip.objects.create(
            collection=copy, external_id=clip.external_id, audio=clip.audio.name, duration=2.0,
            artist=clip.artist, genre=clip.genre,
        )  # fmt: skip
    queries = {q.pk: Query.objects.create(collection=copy, clip=clips[q.clip_id])
               for q in demo.queries.all()}  # fmt: skip
    for system in demo.systems.all():
        twin = System.objects.create(collection=copy, name=system.name)
        RunEntry.objects.bulk_create(
            RunEntry(system=twin, query=queries[e.query_id], rank=e.rank, clip=clips[e.clip_id])
            for e in system.run_entries.all()
        )
    source = JudgmentSource.objects.create(collection=copy, name="qrels.txt", kind="import")
    official = RelevanceJudgment.objects.filter(query__collection=demo, assessor=None)
    RelevanceJudgment.objects.bulk_create(
        RelevanceJudgment(query=queries[j.query_id], clip=clips[j.clip_id], broad=j.broad,
                          source=source)
        for j in official
    )  # fmt: skip
    campaign = preference_campaign_create(collection=copy, name="Broad study", trap_rate=0.0)
    return copy, campaign


class _Quiet:
    def write(self, *args, **kwargs):
        pass

    def flush(self):
        pass


def logged_in(username: str, password: str) -> Client:
    client = Client()
    assert client.login(username=username, password=password), username
    return client


def _links(html: str) -> list[str]:
    return [href.replace("&amp;", "&") for href in re.findall(r'href="([^"#]*)', html)]


def crawl(client: Client, who: str, start: tuple[str, ...] = ("/",)) -> Pages:
    """Every page reachable by links from ``start`` (the person's home page), at most
    :data:`PER_SHAPE` of a shape; files, the API and exports are left out."""
    pages: Pages = []
    queue, queued, shapes = list(start), set(start), {}
    while queue:
        url = queue.pop(0)
        response = client.get(url, follow=True)
        if "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        pages.append((f"{who} {url} ({response.status_code})", html))
        for href in _links(html):
            if not href.startswith("/") or href.startswith(NOT_PAGES) or href in queued:
                continue
            shape = re.sub(r"\d+", "N", href.split("?")[0])
            deletion = DELETE.search(shape)
            if deletion and deletion["kind"] == "collection":
                continue
            if shapes.get(shape, 0) >= (1 if deletion else PER_SHAPE):
                continue
            shapes[shape] = shapes.get(shape, 0) + 1
            queued.add(href)
            queue.append(href)
    return pages


def assessor_pages(world: DemoWorld) -> Pages:
    """Each assessor's pages: home, their next query (the judging page), and the headphone
    screen of a campaign that asks for one."""
    pages: Pages = []
    for who in ("assessor", "second assessor"):
        client = logged_in(*world.logins[who])
        pages += crawl(client, who)
        for campaign in RelevanceCampaign.objects.filter(assessors__username=world.logins[who][0]):
            response = client.post(
                reverse("relevance:assignment_next", args=(campaign.pk,)), follow=True
            )
            pages.append(
                (f"{who} next of {campaign} ({response.status_code})", response.content.decode())
            )
    campaign = RelevanceCampaign.objects.filter(collection=world.demo).first()
    RelevanceCampaign.objects.filter(pk=campaign.pk).update(headphone_check=True)
    client = logged_in(*world.logins["second assessor"])
    response = client.post(reverse("relevance:assignment_next", args=(campaign.pk,)), follow=True)
    pages.append((f"assessor headphone screen ({response.status_code})", response.content.decode()))
    pages += crawl(client, "assessor headphones", start=(response.request["PATH_INFO"],))
    RelevanceCampaign.objects.filter(pk=campaign.pk).update(headphone_check=False)
    return pages


def _page(browser: Browser, who: str, response) -> tuple[str, str]:
    return (f"{who} {response.request['PATH_INFO']} ({response.status_code})",
            response.content.decode())  # fmt: skip


def _answer_all(browser: Browser, who: str, *, right: bool, pages: Pages, limit: int = 40) -> None:
    """Answer every task (listening as the check asks), keeping each page once a kind."""
    from crowd.models import PreferenceTask

    kinds: set[str] = set()
    for _ in range(limit):
        page = browser.task()
        if browser.key is None:
            pages.append(_page(browser, who, browser.client.get(page.url, follow=True)
                               if page.status_code == 302 else page))  # fmt: skip
            return
        task = PreferenceTask.objects.get(key=browser.key)
        kind = "quiz" if task.is_quiz else "practice" if task.is_practice else "work"
        if kind not in kinds:
            kinds.add(kind)
            pages.append(_page(browser, f"{who} {kind} task", page))
            early = browser.answer(right_choice(task) if right else wrong_choice(task))
            pages.append(_page(browser, f"{who} answer before listening", early))
        browser.listen(per_list=browser.campaign.min_clips_per_list, then_wait=60)
        answered = browser.answer(right_choice(task) if right else wrong_choice(task))
        if answered.status_code == 302 and "/feedback/" in answered["Location"]:
            feedback = browser.get(answered["Location"])
            pages.append(_page(browser, f"{who} {kind} feedback", feedback))
    raise AssertionError(f"{who} was still given tasks after {limit} answers")


def worker_pages(world: DemoWorld, *, tag: str = "") -> Pages:
    """The task link's pages, as workers of every kind meet them (``tag`` ends every
    worker's id, so that a second walk meets them as new people)."""
    campaign = world.campaign
    pages: Pages = []
    finisher = Browser(campaign)
    pages.append(_page(finisher, "worker consent", finisher.client.get(
        f"{finisher.base}/?PROLIFIC_PID={prolific_id(f'p-finisher{tag}')}&STUDY_ID=s&SESSION_ID=x", follow=True)))  # fmt: skip
    finisher.consent()
    _answer_all(finisher, "worker", right=True, pages=pages)
    pages.append(_page(finisher, "worker end", finisher.end()))
    pages.append(_page(finisher, "worker done", finisher.done()))
    again = Browser(campaign)
    again.arrive(f"PROLIFIC_PID={prolific_id(f'p-finisher{tag}')}&STUDY_ID=s&SESSION_ID=y")
    pages.append(_page(again, "worker in a second browser", again.responses[-1]))

    decliner = Browser(campaign)
    decliner.arrive(f"PROLIFIC_PID={prolific_id(f'p-decliner{tag}')}")
    pages.append(_page(decliner, "worker declining", decliner.post(
        f"{decliner.base}/consent/", {"decline": "1"})))  # fmt: skip

    failer = Browser(campaign)
    failer.arrive(f"PROLIFIC_PID={prolific_id(f'p-failer{tag}')}")
    failer.consent()
    _answer_all(failer, "failing worker", right=False, pages=pages)
    pages.append(_page(failer, "failing worker done", failer.done()))
    failer.arrive(f"PROLIFIC_PID={prolific_id(f'p-other{tag}')}")
    pages.append(_page(failer, "stopped browser, another id", failer.responses[-1]))

    turk = Browser(campaign)
    pages.append(_page(turk, "MTurk preview", turk.get(
        f"{turk.base}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=h1")))  # fmt: skip
    turk.arrive(
        f"workerId={mturk_id(f't1{tag}')}&assignmentId=ASG1&hitId=HIT1"
        "&turkSubmitTo=https://workersandbox.mturk.com"
    )
    turk.consent()
    _answer_all(turk, "MTurk worker", right=True, pages=pages)
    pages.append(_page(turk, "MTurk worker done", turk.done()))
    pages.append(_page(turk, "worker id missing", turk.get(f"{turk.base}/?STUDY_ID=s")))
    generic = Browser(campaign)
    generic.arrive(f"worker=g1{tag}")
    pages.append(
        _page(generic, "worker under another id", generic.get(f"{generic.base}/?worker=g2{tag}"))
    )

    PreferenceCampaign.objects.filter(pk=campaign.pk).update(headphone_check=True)
    listener = Browser(campaign)
    listener.arrive(f"PROLIFIC_PID={prolific_id(f'p-headphones{tag}')}")
    listener.consent()
    screen = listener.get(f"{listener.base}/headphones/")
    pages.append(_page(listener, "worker headphones", screen))
    for href in _links(screen.content.decode()):
        if href.startswith(listener.base):
            pages.append(_page(listener, "worker headphones", listener.get(href)))
    PreferenceCampaign.objects.filter(pk=campaign.pk).update(headphone_check=False, is_open=False)
    late = Browser(campaign)
    pages.append(
        _page(
            late,
            "worker of a closed study",
            late.arrive(f"PROLIFIC_PID={prolific_id(f'p-late{tag}')}"),
        )
    )
    PreferenceCampaign.objects.filter(pk=campaign.pk).update(is_open=True)
    nobody = Browser(world.broad_campaign)
    PreferenceCampaign.objects.filter(pk=world.broad_campaign.pk).update(is_open=True)
    nobody.arrive(f"worker=n1{tag}")
    nobody.consent()
    pages.append(_page(nobody, "worker with nothing to do", nobody.client.get(
        f"{nobody.base}/task/", follow=True)))  # fmt: skip
    for path in ("/t/", "/t/no-such-study/", f"{campaign.token}x"):
        response = Client().get(path if path.startswith("/") else f"/t/{path}/")
        pages.append((f"cut task link {path} ({response.status_code})", response.content.decode()))
    statuses = {
        worker.platform_id: worker.status for worker in Worker.objects.filter(campaign=campaign)
    }
    assert statuses[prolific_id(f"p-failer{tag}")] == Worker.STOPPED, statuses
    return pages


def error_pages(world: DemoWorld) -> Pages:
    """The error pages a person can meet, each reached as it would be."""
    pages: Pages = []
    anonymous = Client()
    organiser = logged_in(*world.logins["organiser"])
    assessor = logged_in(*world.logins["assessor"])
    for who, client, path in (
        ("anonymous", anonymous, "/no-such-page/"),
        ("organiser", organiser, "/collections/99999/"),
        ("organiser", organiser, "/colections/"),
        ("assessor", assessor, f"/collections/{world.demo.pk}/"),
        ("anonymous", anonymous, "/invitation/no-such-token/"),
        ("anonymous", anonymous, "/login/"),
        ("anonymous", anonymous, "/collections/%00/"),
    ):
        response = client.get(path, follow=True)
        pages.append((f"{who} {path} ({response.status_code})", response.content.decode()))
    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/login/", {"username": "x", "password": "y"})
    pages.append((f"CSRF failure ({response.status_code})", response.content.decode()))
    request = RequestFactory().get("/")
    pages.append(("500", errors.server_error(request).content.decode()))
    request.user = world.demo.owner
    pages.append(("429", errors.too_many_attempts(request, wait=42).content.decode()))
    pages.append(("410", errors.gone(request, title="This link was used", message="It worked once.",
                                     what_to_do="Ask for a new one.").content.decode()))  # fmt: skip
    return pages
