// Completion page. Mechanical Turk: post the assignmentId to turkSubmitTo at once.
// Prolific: show the code with a copy button, count down, then go back to Prolific; the
// link and the code stay on the page in case the redirect does not happen.
const form = document.querySelector("form[data-autosubmit]");
if (form) form.submit();

for (const button of document.querySelectorAll("button[data-copy]")) {
  const code = document.getElementById(button.dataset.copy);
  const said = button.parentElement.querySelector("[data-copied]");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(code.textContent.trim());
      said.textContent = "Copied.";
    } catch {
      // No clipboard (an old browser, a frame): select the code for Ctrl-C instead.
      const range = document.createRange();
      range.selectNodeContents(code);
      const selection = getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      said.textContent = "Selected: press Ctrl-C (⌘-C) to copy.";
    }
  });
}

const notice = document.querySelector("[data-redirect]");
if (notice) {
  let left = Number(notice.dataset.seconds);
  const shown = notice.querySelector("[data-countdown]");
  const tick = setInterval(() => {
    left -= 1;
    shown.textContent = String(Math.max(left, 0));
    if (left <= 0) {
      clearInterval(tick);
      location.assign(notice.dataset.redirect);
    }
  }, 1000);
}
