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

// On a phone the instructions (read on the consent page, and the same on every task)
// start folded, so the lists and the answer are on the first screen (issue 31).
const instructions = document.querySelector("details.instructions");
if (instructions && window.matchMedia("(max-width: 640px)").matches) instructions.open = false;

document.addEventListener("play", (event) => {
  for (const audio of document.querySelectorAll("audio")) {
    if (audio !== event.target) audio.pause();
  }
}, true);

// The heartbeat: while this page is open it tells the server every few seconds, so the
// task keeps its place; a page closed or left silent gives it back after a minute
// (crowd.services.tasks.TASK_HEARTBEAT_LEASE). It stops once the task is gone.
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

// What the server counts as heard (issue 23): after a clip pauses or ends, and every few
// seconds while one plays, the page asks; each clip the server counts gets a mark, and the
// line above the button says what the answer still waits for. The server decides; the
// page only shows it.
const heardUrl = form.dataset.heardUrl;
const status = document.getElementById("listen-status");
async function showHeard() {
  if (!heardUrl) return;
  try {
    const response = await fetch(heardUrl, { credentials: "same-origin" });
    if (!response.ok) return;
    const { heard, ready, missing } = await response.json();
    for (const audio of document.querySelectorAll("audio")) {
      const slot = audio.getAttribute("src").split("/").pop();
      const holder = audio.parentElement;
      const done = heard.includes(slot);
      holder.classList.toggle("heard", done);
      let mark = holder.querySelector(".heard-mark");
      if (done && !mark) {
        mark = document.createElement("span");
        mark.className = "heard-mark";
        mark.textContent = "✓ heard";
        holder.append(mark);
      }
    }
    status.textContent = ready ? "Ready: you can answer." : missing;
  } catch {
    // offline for a moment: the next ask will tell
  }
}
for (const audio of document.querySelectorAll("audio")) {
  audio.addEventListener("pause", showHeard);
  audio.addEventListener("ended", showHeard);
}
setInterval(() => {
  if ([...document.querySelectorAll("audio")].some((a) => !a.paused)) showHeard();
}, 4000);
