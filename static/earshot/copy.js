// Copy buttons: <button type="button" data-copy="ID">…</button> copies the value (or text) of
// the element with that id, and says so for a moment. No inline script (the site's CSP).
"use strict";

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  if (!source) return;
  const text = "value" in source ? source.value : source.textContent.trim();
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    if (source.select) source.select(); // no clipboard (plain HTTP): selected, ready for Ctrl-C
    document.execCommand && document.execCommand("copy");
  }
  const label = button.dataset.label || button.textContent;
  button.dataset.label = label;
  button.textContent = "Copied";
  button.setAttribute("aria-live", "polite");
  setTimeout(() => { button.textContent = label; }, 2000);
});
