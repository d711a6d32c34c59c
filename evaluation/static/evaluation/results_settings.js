// The results settings page: follow the recompute that saving asked for, without
// reloading (so nothing typed meanwhile is lost); say when the new results are ready.
const box = document.getElementById("settings-recompute");

if (box) {
  const url = box.dataset.statusUrl;
  const state = box.querySelector(".state");
  const bar = box.querySelector("progress");
  const message = box.querySelector(".message");
  const finished = box.querySelector(".finished");
  let active = box.dataset.active === "true";

  async function poll() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const { recompute } = await response.json();
        bar.hidden = !recompute.active;
        bar.value = recompute.progress;
        message.textContent = recompute.active ? recompute.message : "";
        if (recompute.active) {
          state.textContent = "Recomputing the results with these settings…";
        } else if (active) {
          state.textContent = recompute.status === "failed"
            ? `The recompute failed: ${recompute.error}`
            : `Results recomputed at ${(recompute.finished_at || "").slice(0, 19).replace("T", " ")} UTC.`;
          finished.hidden = recompute.status === "failed";
        }
        active = recompute.active;
      }
    } catch (error) {
      // The server is restarting or the network dropped: try again later.
    }
    window.setTimeout(poll, active ? 1000 : 5000);
  }

  window.setTimeout(poll, active ? 500 : 5000);
}
