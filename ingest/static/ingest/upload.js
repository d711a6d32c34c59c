// An upload page: send the form with a progress bar of the bytes sent (big zips of audio
// take a while), then follow the server to the import's job page. Without JavaScript the
// form posts as usual; the server's answer is the same either way.
const form = document.querySelector("form.upload");
const box = document.getElementById("sending");

if (form && box && window.FormData) {
  const bar = box.querySelector("progress");
  const figures = box.querySelector(".figures");
  // 0.4 MB, 12 KB, 900 bytes: never "0.0 MB of 0.0 MB" for a small file (issue 31).
  const mb = (n) => {
    if (n >= 104858) return `${(n / 1048576).toFixed(1)} MB`;
    if (n >= 1024) return `${Math.round(n / 1024)} KB`;
    return `${n} bytes`;
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true; // one click, one upload
    box.hidden = false;
    const request = new XMLHttpRequest();
    request.open("POST", form.action || window.location.href);
    request.upload.addEventListener("progress", (sent) => {
      if (sent.lengthComputable) {
        bar.value = sent.loaded / sent.total;
        figures.textContent = `${mb(sent.loaded)} of ${mb(sent.total)}`;
      }
    });
    request.addEventListener("load", () => {
      if (request.status < 300) {
        window.location.assign(request.responseURL); // the job's page (redirect followed)
      } else {
        document.open(); // the page again, with the server's message (400, 413, 403)
        document.write(request.responseText);
        document.close();
      }
    });
    request.addEventListener("error", () => {
      button.disabled = false;
      figures.textContent = "The connection was lost; nothing was imported. Try again.";
    });
    request.send(new FormData(form));
  });
}
