// The task page: keys 1–4 choose an answer, Enter submits; one clip plays at a time.
// The server makes a second submission harmless (idempotency key); this only spares the
// worker a confusing double click.
const form = document.getElementById("task-form");
const radios = [...form.querySelectorAll('input[name="choice"]')];
const button = form.querySelector('button[type="submit"]');

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
  if (event.target.closest("textarea, input[type=text]")) return;
  const n = Number(event.key);
  if (Number.isInteger(n) && n >= 1 && n <= radios.length) {
    radios[n - 1].checked = true;
    radios[n - 1].focus();
    event.preventDefault();
  } else if (event.key === "Enter" && !event.target.closest("button, a, audio")) {
    event.preventDefault();
    form.requestSubmit();
  }
});

form.addEventListener("submit", () => {
  // Disable after this event: the form data (with the key) is already collected.
  setTimeout(() => { button.disabled = true; }, 0);
});

document.addEventListener("play", (event) => {
  for (const audio of document.querySelectorAll("audio")) {
    if (audio !== event.target) audio.pause();
  }
}, true);

// The heartbeat: while this page is open it tells the server every few seconds, so the
// task keeps its place; a page closed or left silent gives it back after a few minutes
// (judging.services.crowd.tasks.TASK_HEARTBEAT_LEASE). It stops once the task is gone.
const aliveUrl = form.dataset.aliveUrl;
const aliveSeconds = Number(form.dataset.aliveSeconds);
if (aliveUrl && aliveSeconds > 0) {
  const beat = setInterval(async () => {
    try {
      const response = await fetch(aliveUrl, { method: "POST", credentials: "same-origin" });
      if (response.status === 404) clearInterval(beat);
    } catch {
      // offline for a moment: the next beat tries again
    }
  }, aliveSeconds * 1000);
}
