// A low-cost campaign's page: keep its estimates live as judgments arrive.
// The evaluation layer renders them (an HTML fragment); this fetches it every two seconds
// and swaps it in when it changed, keeping open what the organiser opened.
const box = document.getElementById("estimates");

if (box) {
  const url = box.dataset.url;
  let version = null;

  async function refresh() {
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" } });
      if (response.ok) {
        const holder = document.createElement("div");
        holder.innerHTML = await response.text();
        const fresh = holder.querySelector(".campaign-estimate");
        if (fresh && fresh.dataset.version !== version) {
          const wasOpen = box.querySelector("details")?.open;
          version = fresh.dataset.version;
          box.replaceChildren(fresh);
          const details = box.querySelector("details");
          if (details && wasOpen !== undefined) details.open = wasOpen;
        }
      }
    } catch (error) {
      // The server is restarting or the network dropped: try again later.
    }
    window.setTimeout(refresh, 2000);
  }

  refresh();
}
