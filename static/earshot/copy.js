// Copy buttons: <button type="button" data-copy="ID">…</button> copies the value (or text) of
// the element with that id, and says so: in a [data-copied] status beside the button when
// there is one, else on the button for a moment. Without a clipboard (plain HTTP, an old
// browser, a frame) the text is selected for Ctrl-C instead. No inline script (the CSP).
"use strict";

function select(source) {
  if (source.select) return source.select();
  const range = document.createRange();
  range.selectNodeContents(source);
  getSelection().removeAllRanges();
  getSelection().addRange(range);
}

function say(button, text) {
  const status = button.parentElement.querySelector("[data-copied]");
  if (status) {
    status.textContent = text;
    return;
  }
  const label = button.dataset.label || button.textContent;
  button.dataset.label = label;
  button.textContent = text;
  setTimeout(() => { button.textContent = label; }, 2000);
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  const source = button && document.getElementById(button.dataset.copy);
  if (!source) return;
  const text = "value" in source ? source.value : source.textContent.trim();
  try {
    await navigator.clipboard.writeText(text);
    say(button, button.parentElement.querySelector("[data-copied]") ? "Copied." : "Copied");
  } catch {
    select(source);
    say(button, "Selected: press Ctrl-C (⌘-C) to copy.");
  }
});
