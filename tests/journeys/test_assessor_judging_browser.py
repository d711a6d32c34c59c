"""In Chromium: an assessor judges two queries (mouse, then keyboard alone, reloading half-way).

The campaign asks for 1 s of listening before a candidate can be scored; clips last 3 s.
Screenshots go to ``var/screenshots/`` for a person to look at.
"""

import base64

import pytest
from playwright.sync_api import expect

from catalog.models import RelevanceJudgment
from relevance.models import Assignment, JudgmentActivity
from relevance.services.campaigns import relevance_campaign_create
from tests.helpers.browser import log_in, shot, wait_saved
from tests.helpers.personas import PASSWORD
from tests.helpers.relevance_data import POOL_AT_3, make_judging_collection

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def campaign(personas, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    collection = make_judging_collection(personas.organiser, audio_seconds=3.0)
    return relevance_campaign_create(
        collection=collection,
        name="Similarity 2025",
        cutoff=3,
        exclude_same_artist=False,
        must_listen_seconds=1,
        assessors=[personas.assessor],
    )


def candidate(page, number):
    return page.get_by_role("region", name=f"Candidate {number}", exact=True)


def listened_enough(page, number):
    """Wait until the candidate's controls unlock (1 s of it has played)."""
    expect(candidate(page, number).get_by_role("radio", name="Very similar")).to_be_enabled(
        timeout=30_000
    )


def pool_size(page):
    return page.locator("section.candidate").count()


def judge_with_the_mouse(page, number, broad_label, fraction):
    region = candidate(page, number)
    audio = region.locator("audio")
    audio.scroll_into_view_if_needed()
    box = audio.bounding_box()
    audio.click(position={"x": 18, "y": box["height"] / 2})  # the player's play button
    listened_enough(page, number)
    region.get_by_text(broad_label, exact=True).click()
    wait_saved(page)  # the status line changes as it saves: the page settles first
    slider = region.get_by_role("slider", name="Fine score")
    track = slider.bounding_box()
    # Relative to the slider where it is when clicked (a mouse click at coordinates read
    # earlier misses it if the page moved in between).
    slider.click(position={"x": track["width"] * fraction, "y": track["height"] / 2})
    wait_saved(page)
    return int(slider.input_value())


def test_an_assessor_judges_with_the_mouse_then_the_keyboard_alone(page, personas, campaign):
    log_in(page, personas.assessor.username, PASSWORD)
    expect(page.get_by_role("heading", name="Similarity 2025")).to_be_visible()
    page.get_by_role("button", name="Get next query").click()
    expect(
        page.get_by_role("heading", name="How similar is each candidate to the query?")
    ).to_be_visible()
    first = Assignment.objects.get(assessor=personas.assessor)
    n = pool_size(page)
    assert n == len(POOL_AT_3[first.query.external_id])
    expect(page.get_by_text(f"Candidates done 0 of {n}")).to_be_visible()
    expect(page.get_by_text("Queries done 0 of 1 assigned")).to_be_visible()
    # Nothing hints at systems: no names, ranks or scores on the page.
    body = page.locator("body").inner_text()
    assert not any(name in body for name in ("sysAlpha", "sysBeta", "sysGamma"))
    # Locked until listened to.
    expect(candidate(page, 1).get_by_role("radio", name="Not similar")).to_be_disabled()
    shot(page, "judging-desktop-start")

    # --- Query 1 with the mouse; candidate 1 is also played to the end of a seek ---
    query_player = page.get_by_label("Query clip")
    query_player.evaluate("a => a.play()")
    page.wait_for_function("() => document.getElementById('query-audio').currentTime > 0.2")
    labels = ["Not similar", "Somewhat similar", "Very similar"]
    expected = {}
    for number in range(1, n + 1):
        label = labels[number % 3]
        fine = judge_with_the_mouse(page, number, label, fraction=0.15 + 0.2 * (number - 1))
        expected[number] = (labels.index(label), fine)
        if number == 1:
            player = candidate(page, 1).locator("audio")
            player.evaluate("a => { a.currentTime = 2.5; }")  # seeking needs Range support
            page.wait_for_function(
                "() => { const a = document.querySelector('section.candidate audio');"
                " return !a.seeking && a.currentTime >= 2.5; }"
            )
            assert player.evaluate("a => a.seekable.end(0)") == pytest.approx(3.0, abs=0.05)
    expect(page.get_by_text(f"Candidates done {n} of {n}")).to_be_visible()
    expect(page.get_by_text("This query is done.")).to_be_visible()
    expect(page.get_by_text("Queries done 1 of 1 assigned")).to_be_visible()
    shot(page, "judging-desktop-done")

    judgments = RelevanceJudgment.objects.filter(assessor=personas.assessor, query=first.query)
    assert judgments.count() == n
    assert {j.source for j in judgments} == {campaign.source}
    for region_number, (broad, fine) in expected.items():
        clip_pk = int(candidate(page, region_number).get_attribute("data-candidate"))
        judgment = judgments.get(clip__pool_entries__pk=clip_pk)
        assert (judgment.broad, judgment.fine) == (broad, fine)
        activity = judgment.activity
        assert activity.listened_seconds >= 0.75 and activity.plays >= 1
        assert activity.judging_seconds > 0
    first.refresh_from_db()
    assert first.completed_at is not None

    # --- Query 2 with the keyboard alone ---
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.textContent.trim()") == "Get next query":
            break
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: f"/judge/assignments/{first.pk}/" not in url)
    second = Assignment.objects.get(assessor=personas.assessor, completed_at=None)
    m = pool_size(page)
    assert m == len(POOL_AT_3[second.query.external_id])
    keyboard = {}

    def judge_with_keys(number, digit, arrows):
        expect(candidate(page, number)).to_have_attribute("aria-current", "true")
        page.keyboard.press(" ")  # play the current candidate
        listened_enough(page, number)
        page.keyboard.press(" ")  # pause
        page.keyboard.press(digit)
        for key in arrows:
            page.keyboard.press(key)
        wait_saved(page)
        keyboard[number] = (
            int(digit) - 1,
            50
            + sum(
                {"ArrowUp": 10, "ArrowDown": -10, "ArrowRight": 1, "ArrowLeft": -1}[k]
                for k in arrows
            ),
        )
        page.keyboard.press("n")

    half = m // 2
    plans = [("3", ["ArrowUp", "ArrowUp", "ArrowUp", "ArrowRight"]), ("1", ["ArrowDown", "ArrowDown", "ArrowLeft"]),
             ("2", ["ArrowRight"]), ("3", ["ArrowUp", "ArrowUp", "ArrowUp", "ArrowUp"]), ("1", ["ArrowDown"] * 4)]  # fmt: skip
    for number in range(1, half + 1):
        judge_with_keys(number, *plans[number - 1])
    # Broad "Very similar" with a low Fine score: a gentle hint, nothing blocked.
    expect(page.get_by_text(f"Candidates done {half} of {m}")).to_be_visible()

    # --- Reload half-way: everything is kept, and work resumes at the first undone ---
    page.reload()
    expect(page.get_by_text(f"Candidates done {half} of {m}")).to_be_visible()
    for number, (broad, fine) in keyboard.items():
        region = candidate(page, number)
        expect(region.get_by_role("radio", name=labels[broad])).to_be_checked()
        expect(region.get_by_role("slider", name="Fine score")).to_have_value(str(fine))
        expect(region.get_by_role("spinbutton", name="Fine score value")).to_have_value(str(fine))
    expect(candidate(page, half + 1)).to_have_attribute("aria-current", "true")
    for number in range(half + 1, m + 1):
        judge_with_keys(number, *plans[number - 1])
    expect(page.get_by_text(f"Candidates done {m} of {m}")).to_be_visible()
    expect(page.get_by_text("Queries done 2 of 2 assigned")).to_be_visible()
    expect(page.get_by_text("This query is done.")).to_be_visible()

    saved = RelevanceJudgment.objects.filter(assessor=personas.assessor, query=second.query)
    for number, (broad, fine) in keyboard.items():
        clip_pk = int(candidate(page, number).get_attribute("data-candidate"))
        judgment = saved.get(clip__pool_entries__pk=clip_pk)
        assert (judgment.broad, judgment.fine) == (broad, fine)
    assert JudgmentActivity.objects.filter(assignment=second, plays__gte=1).count() == m
    second.refresh_from_db()
    assert second.completed_at is not None


def test_a_disagreeing_broad_and_fine_get_a_gentle_hint(page, personas, campaign):
    log_in(page, personas.assessor.username, PASSWORD)
    page.get_by_role("button", name="Get next query").click()
    region = candidate(page, 1)
    region.locator("audio").evaluate("a => a.play()")
    listened_enough(page, 1)
    region.get_by_text("Very similar", exact=True).click()
    region.get_by_role("spinbutton", name="Fine score value").fill("20")
    region.get_by_role("spinbutton", name="Fine score value").press("Tab")
    hint = region.get_by_text("with a Fine score below 34")
    expect(hint).to_be_visible()
    wait_saved(page)  # the hint does not stop the save
    judgment = RelevanceJudgment.objects.get(assessor=personas.assessor)
    assert (judgment.broad, judgment.fine) == (2, 20)


def accent_pixels(page, element) -> int:
    """Pixels of ``element``'s screenshot in the slider's accent, a strong blue (``--accent``
    of static/earshot/base.css, which Chromium draws darker: 27,66,150 and 53,73,115 on a
    set slider), counted in a blank page of the same browser (the app's pages allow no
    ``data:`` image under their security policy)."""
    png = base64.b64encode(element.screenshot()).decode()
    blank = page.context.new_page()
    try:
        return blank.evaluate(
            """async (png) => {
                const img = new Image();
                img.src = `data:image/png;base64,${png}`;
                await img.decode();
                const canvas = document.createElement("canvas");
                [canvas.width, canvas.height] = [img.width, img.height];
                const context = canvas.getContext("2d");
                context.drawImage(img, 0, 0);
                const data = context.getImageData(0, 0, img.width, img.height).data;
                let n = 0;
                for (let i = 0; i < data.length; i += 4) {
                  const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
                  if (b > r + 40 && b > g + 30) n += 1;
                }
                return n;
            }""",
            png,
        )
    finally:
        blank.close()


def first_candidate_somewhat_similar(page, personas):
    """The assessor's first query, its first candidate heard and judged "Somewhat similar"
    on the Broad scale only; the candidate's region."""
    log_in(page, personas.assessor.username, PASSWORD)
    page.get_by_role("button", name="Get next query").click()
    region = candidate(page, 1)
    region.locator("audio").evaluate("a => a.play()")
    listened_enough(page, 1)
    region.get_by_text("Somewhat similar", exact=True).click()
    wait_saved(page)
    return region


def test_an_unset_fine_score_looks_unset_and_the_candidate_says_what_is_left(
    page, personas, campaign
):
    """Issue 31, item 8: after choosing Broad, the Fine slider's thumb sat at 50 while its
    value read "–", and the candidate stayed "To do" with no hint."""
    region = first_candidate_somewhat_similar(page, personas)
    slider = region.get_by_role("slider", name="Fine score")
    expect(region.locator(".state")).to_have_text("To do: the Fine score")
    expect(region.get_by_text("not set: click where it belongs")).to_be_visible()
    expect(slider).to_have_attribute("aria-valuetext", "not set")
    expect(region.get_by_role("spinbutton", name="Fine score value")).to_have_value("")
    assert accent_pixels(page, slider) == 0  # no thumb, no filled half: nothing looks set
    shot(page, "judging-fine-unset")
    box = slider.bounding_box()
    slider.click(position={"x": box["width"] * 0.8, "y": box["height"] / 2})
    expect(region.locator(".state")).to_have_text("Done")
    expect(region.get_by_text("not set: click where it belongs")).to_be_hidden()
    expect(slider).not_to_have_attribute("aria-valuetext", "not set")
    assert accent_pixels(page, slider) > 100  # the thumb and the filled part, in the accent
    wait_saved(page)
    judgment = RelevanceJudgment.objects.get(assessor=personas.assessor)
    assert judgment.broad == 1 and 70 <= judgment.fine <= 90


def test_the_judging_page_fits_a_phone_screen(page, personas, campaign):
    page.set_viewport_size({"width": 375, "height": 812})
    region = first_candidate_somewhat_similar(page, personas)
    slider = region.get_by_role("slider", name="Fine score")
    box = slider.bounding_box()
    # Off the middle: the slider starts at 50, and a click that leaves it there changes
    # nothing, so no Fine score would be saved.
    slider.click(position={"x": box["width"] * 0.7, "y": box["height"] / 2})
    expect(slider).not_to_have_value("50")
    wait_saved(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    shot(page, "judging-phone")
    expect(page.get_by_text("Candidates done 1 of")).to_be_visible()
