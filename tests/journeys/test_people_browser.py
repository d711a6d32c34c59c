"""In Chromium: an organiser invites an assessor, the e-mail is sent, and the link copied
with one click (issue 25, item 5)."""

import pytest
from django.core import mail
from playwright.sync_api import expect

from tests.helpers.browser import log_in
from tests.helpers.personas import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_invitation_link_is_e_mailed_and_copied_with_one_click(page, personas, settings):
    settings.EARSHOT_EMAIL_ENABLED = True
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto("/people/")
    page.get_by_label("Username").fill("bea")
    page.get_by_label("Email").fill("bea@example.org")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text("It was e-mailed to bea@example.org")).to_be_visible()
    link = page.get_by_role("textbox", name="Invitation link").input_value()
    assert mail.outbox and link in mail.outbox[-1].body
    page.get_by_role("button", name="Copy the link").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link
