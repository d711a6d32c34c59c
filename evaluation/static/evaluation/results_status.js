// Results pages: show the recompute's progress and reload once when new results are stored.
// Polls a small JSON document: every second while a recompute runs, every 10 s otherwise.
const box = document.getElementById("recompute");

if (box) {
  const url = box.dataset.statusUrl;
  const row = box.querySelector(".progress-row");
  const bar = box.querySelector("progress");
  const message = box.querySelector(".message");
  let wasActive = box.dataset.active === "true";
  // What the page shows was stored by the recompute that finished at this time.
  let lastFinished = box.dataset.finishedAt || null;

  async function poll() {
    let active = wasActive;
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const { recompute } = await response.json();
        active = recompute.active;
        row.hidden = !active;
        bar.value = recompute.progress;
        bar.textContent = `${Math.round(recompute.progress * 100)}%`;
        message.textContent = recompute.message;
        if (!active && recompute.status === "done" && recompute.finished_at !== lastFinished) {
          window.location.reload(); // one reload per finished recompute, not per answer
          return;
        }
      }
    } catch (error) {
      // The server is restarting or the network dropped: try again later.
    }
    wasActive = active;
    window.setTimeout(poll, active ? 1000 : 10000);
  }

  window.setTimeout(poll, wasActive ? 500 : 10000);
}
