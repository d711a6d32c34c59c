// Completion page. Mechanical Turk: post the assignmentId to turkSubmitTo at once.
// Prolific: count down, then go back to Prolific; the link and the code (with its copy
// button, static/earshot/copy.js) stay on the page in case the redirect does not happen.
const form = document.querySelector("form[data-autosubmit]");
if (form) form.submit();

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
