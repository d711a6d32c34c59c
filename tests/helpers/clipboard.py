"""Copy buttons in Chromium (static/earshot/copy.js): click, wait for "Copied", read back."""

import re

from playwright.sync_api import expect


def copy_with(page, button_name: str) -> str:
    """What the button named ``button_name`` put on the clipboard. The write is
    asynchronous; the page says "Copied" (on the button, or in the status beside it) once
    it has finished, and only then is the clipboard read."""
    button = page.get_by_role("button", name=button_name)
    source = button.get_attribute("data-copy")
    button.click()
    said = page.locator(f'button[data-copy="{source}"]').locator("xpath=..")
    expect(said).to_contain_text(re.compile("Copied"))
    return page.evaluate("navigator.clipboard.readText()")
