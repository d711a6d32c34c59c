// A background job's page: poll its small JSON status, show the progress, and go to the
// result once it ends. Every second while it runs; slower after errors of the network.
const box = document.getElementById("job");

if (box) {
  const url = box.dataset.statusUrl;
  const resultUrl = box.dataset.resultUrl;
  const bar = box.querySelector("progress");
  const state = box.querySelector(".state");
  const figures = box.querySelector(".figures");
  const message = box.querySelector(".message");
  const error = box.querySelector(".error");
  const done = box.querySelector(".done");
  const place = box.querySelector(".place"); // where it waits in its queue
  const still = box.querySelector(".still"); // its progress has stood still for a minute
  const counted = box.dataset.counted === "true"; // an upload's message holds its counts
  const labels = { queued: "Queued", running: "Running", done: "Done", failed: "Failed", cancelled: "Cancelled" };
  let delay = 1000;

  function show(job) {
    state.textContent = labels[job.state] || job.state;
    if (job.fraction === null) {
      bar.removeAttribute("value"); // indeterminate while the total is unknown
    } else {
      bar.value = job.fraction;
      bar.textContent = `${Math.round(job.fraction * 100)}%`;
    }
    figures.textContent = counted && job.total ? `${job.done} of ${job.total}` : "";
    message.textContent = job.message;
    place.textContent = job.place;
    place.hidden = !job.place;
    still.textContent = job.no_progress;
    still.hidden = !job.no_progress;
    if (job.error) {
      const where = job.error_file ? `${job.error_file}${job.error_line ? `, line ${job.error_line}` : ""}: ` : "";
      error.textContent = where + job.error;
      error.hidden = false;
    }
    done.hidden = job.active;
  }

  async function poll() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const job = await response.json();
        show(job);
        delay = 1000;
        if (!job.active) {
          window.location.assign(resultUrl);
          return;
        }
      }
    } catch (err) {
      delay = Math.min(delay * 2, 10000); // the server is restarting or the network dropped
    }
    window.setTimeout(poll, delay);
  }

  if (["queued", "running"].includes(box.dataset.state)) {
    window.setTimeout(poll, 300);
  }
}
