// The judging page: every change is saved at once, listening and judging time are measured,
// and the whole page works from the keyboard. No build step; one module for one page,
// with the ranking page's way of saving (save_json.js).

import { postJson, retryDelay } from "./save_json.js";

const root = document.getElementById("judging");
const saveUrl = root.dataset.saveUrl;
const mustListen = Number(root.dataset.mustListen);
const csrfToken = root.querySelector("[name=csrfmiddlewaretoken]").value;
const pendingKey = `earshot:assignment:${root.dataset.assignment}:pending`;
const statusEl = document.getElementById("save-status");
const doneEl = document.getElementById("candidates-done");
const queriesDoneEl = document.getElementById("queries-done");
const finishedEl = document.getElementById("finished");
const queryAudio = document.getElementById("query-audio");
let assignmentDone = root.dataset.done === "true";

// Defined once on the server (relevance.views.assessors.PAGE_CONSTANTS): the Broad labels,
// the top of the Fine scale and the slack the server allows on the listening time.
const { broadLabels: BROAD_LABELS, fineMax: FINE_MAX, listenTolerance: LISTEN_TOLERANCE } =
  JSON.parse(document.getElementById("judging-constants").textContent);
// The page's own gentle hint (nothing is blocked): Broad and Fine disagree by a third.
const HINT_VERY_BELOW = 34;
const HINT_NOT_ABOVE = 66;
const candidates = [...root.querySelectorAll("section.candidate")].map(setUpCandidate);
const byId = new Map(candidates.map((c) => [c.id, c]));
let current = null;

// --- State of one candidate -------------------------------------------------------------

function setUpCandidate(section) {
  const c = {
    section,
    id: Number(section.dataset.candidate),
    audio: section.querySelector("audio"),
    radios: [...section.querySelectorAll("input[type=radio]")],
    range: section.querySelector("input[type=range]"),
    number: section.querySelector("input[type=number]"),
    listenEl: section.querySelector(".listen"),
    hintEl: section.querySelector(".hint"),
    stateEl: section.querySelector(".state"),
    unsetEl: section.querySelector(".fine-unset"),
    broad: section.dataset.broad === "" ? null : Number(section.dataset.broad),
    fine: section.dataset.fine === "" ? null : Number(section.dataset.fine),
    listened: Number(section.dataset.listened),
    judging: Number(section.dataset.judging),
    plays: Number(section.dataset.plays),
    lastTime: null,
    timer: null,
    inFlight: false,
    again: false,
  };
  c.audio.addEventListener("play", () => {
    c.plays += 1;
    c.lastTime = c.audio.currentTime;
    pauseAllBut(c.audio);
    makeCurrent(c, { focus: false });
  });
  c.audio.addEventListener("timeupdate", () => {
    const now = c.audio.currentTime;
    if (!c.audio.paused && !c.audio.seeking && c.lastTime !== null) {
      const step = now - c.lastTime;
      if (step > 0 && step < 1.5) {
        const before = c.listened;
        c.listened += step;
        if (before < mustListen && c.listened >= mustListen) save(c, { soon: true });
      }
    }
    c.lastTime = now;
    renderListen(c);
  });
  c.audio.addEventListener("seeking", () => { c.lastTime = null; });
  c.audio.addEventListener("seeked", () => { c.lastTime = c.audio.currentTime; });
  for (const event of ["pause", "ended"]) {
    c.audio.addEventListener(event, () => { c.lastTime = null; save(c, { soon: true }); });
  }
  for (const radio of c.radios) {
    radio.addEventListener("change", () => setBroad(c, Number(radio.value)));
  }
  c.range.addEventListener("input", () => setFine(c, Number(c.range.value), { soon: true }));
  c.range.addEventListener("change", () => setFine(c, Number(c.range.value)));
  // A click on an unset slider at its resting value fires no change event: set it anyway.
  c.range.addEventListener("click", () => { if (c.fine === null) setFine(c, Number(c.range.value)); });
  c.number.addEventListener("input", () => {
    if (c.number.value === "" || !c.number.validity.valid) return;
    setFine(c, Number(c.number.value), { soon: true, fromNumber: true });
  });
  c.number.addEventListener("change", () => {
    if (c.number.value === "") return;
    setFine(c, clamp(Math.round(Number(c.number.value)), 0, FINE_MAX));
  });
  section.addEventListener("focusin", () => makeCurrent(c, { focus: false }));
  section.addEventListener("pointerdown", () => makeCurrent(c, { focus: false }));
  render(c);
  return c;
}

function clamp(value, low, high) { return Math.min(high, Math.max(low, value)); }
function isDone(c) { return c.broad !== null && c.fine !== null; }
function canScore(c) { return c.listened + LISTEN_TOLERANCE >= mustListen || c.broad !== null || c.fine !== null; }

function setBroad(c, value) {
  if (!canScore(c)) return render(c);
  c.broad = value;
  render(c);
  save(c);
}

function setFine(c, value, { soon = false, fromNumber = false } = {}) {
  if (!canScore(c)) return render(c);
  c.fine = clamp(value, 0, FINE_MAX);
  render(c, { keepNumber: fromNumber });
  save(c, { soon });
}

function renderListen(c) {
  const left = Math.max(0, mustListen - c.listened);
  const locked = !canScore(c);
  c.listenEl.textContent = locked
    ? `Listen to at least ${mustListen} s before scoring (${Math.ceil(left)} s to go).`
    : "";
  c.listenEl.hidden = !locked;
  for (const input of [...c.radios, c.range, c.number]) input.disabled = locked;
}

function render(c, { keepNumber = false } = {}) {
  for (const radio of c.radios) radio.checked = c.broad !== null && Number(radio.value) === c.broad;
  c.range.value = c.fine ?? 50;
  // Unset, the slider shows no thumb and says so: a thumb resting at 50 looked set (issue 31).
  c.range.classList.toggle("unset", c.fine === null);
  if (c.fine === null) c.range.setAttribute("aria-valuetext", "not set");
  else c.range.removeAttribute("aria-valuetext");
  c.unsetEl.hidden = c.fine !== null;
  if (!keepNumber) c.number.value = c.fine ?? "";
  c.section.classList.toggle("done", isDone(c));
  const missing = c.broad === null ? "Broad" : "Fine";
  const started = c.broad !== null || c.fine !== null;
  c.stateEl.textContent = isDone(c) ? "Done" : started ? `To do: the ${missing} score` : "To do";
  let hint = "";
  if (c.broad === 2 && c.fine !== null && c.fine < HINT_VERY_BELOW) {
    hint = `“${BROAD_LABELS[2]}” with a Fine score below ${HINT_VERY_BELOW} — fine if that is what you mean.`;
  } else if (c.broad === 0 && c.fine !== null && c.fine > HINT_NOT_ABOVE) {
    hint = `“${BROAD_LABELS[0]}” with a Fine score above ${HINT_NOT_ABOVE} — fine if that is what you mean.`;
  }
  c.hintEl.textContent = hint;
  c.hintEl.hidden = hint === "";
  renderListen(c);
}

// --- Saving: at once, one request per candidate at a time, retried, kept across reloads ---

function payload(c) {
  const body = {
    candidate: c.id,
    listened_seconds: Number(c.listened.toFixed(2)),
    judging_seconds: Number(c.judging.toFixed(2)),
    plays: c.plays,
  };
  if (c.broad !== null) body.broad = c.broad;
  if (c.fine !== null) body.fine = c.fine;
  return body;
}

function readPending() {
  try { return JSON.parse(localStorage.getItem(pendingKey) || "{}"); } catch { return {}; }
}

function writePending(pending) {
  try {
    if (Object.keys(pending).length) localStorage.setItem(pendingKey, JSON.stringify(pending));
    else localStorage.removeItem(pendingKey);
  } catch { /* private mode: the server copy is enough */ }
}

function setStatus(text, kind = "") {
  statusEl.textContent = text;
  statusEl.dataset.kind = kind;
}

function save(c, { soon = false } = {}) {
  const pending = readPending();
  pending[c.id] = payload(c);
  writePending(pending);
  setStatus("Saving…", "saving");
  clearTimeout(c.timer);
  c.timer = setTimeout(() => { c.timer = null; send(c); }, soon ? 300 : 0);
}

async function send(c, attempt = 0) {
  if (c.inFlight) { c.again = true; return; }
  c.inFlight = true;
  const body = payload(c);
  const sent = await postJson(saveUrl, body, csrfToken);
  if (sent.saved) {
    const pending = readPending();
    if (JSON.stringify(pending[c.id]) === JSON.stringify(body)) delete pending[c.id];
    writePending(pending);
    if (statusEl.dataset.kind === "error") statusEl.dataset.kind = "saving";
    applySaved(sent.data);
  } else if (sent.refused) {
    setStatus(`Not saved: ${sent.refused}`, "error");
    // beside the candidate too: what the server still needs before this score counts
    c.listenEl.textContent = `Not saved: ${sent.refused}`;
    c.listenEl.hidden = false;
  }
  c.inFlight = false;
  if (sent.retry) {
    setStatus("Not saved yet — retrying…", "error");
    setTimeout(() => send(c, attempt + 1), retryDelay(attempt));
  } else if (c.again) {
    c.again = false;
    send(c);
  } else if (statusEl.dataset.kind !== "error" && !candidates.some((o) => o.inFlight || o.timer)) {
    setStatus("All changes saved", "saved");
  }
}

function applySaved(data) {
  doneEl.textContent = data.candidates_done;
  if (data.assignment_done && !assignmentDone) {
    assignmentDone = true;
    queriesDoneEl.textContent = Number(queriesDoneEl.textContent) + 1;
    finishedEl.hidden = false;
  }
}

function flushOnLeave() {
  if (current) tickJudging();
  for (const c of candidates) {
    if (c.timer || c.lastTime !== null) {
      clearTimeout(c.timer);
      fetch(saveUrl, {
        method: "POST",
        keepalive: true,
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken },
        body: JSON.stringify(payload(c)),
        credentials: "same-origin",
      }).catch(() => {});
    }
  }
}
addEventListener("pagehide", flushOnLeave);

// Changes a crash kept from reaching the server are sent again on the next visit.
for (const [id, body] of Object.entries(readPending())) {
  const c = byId.get(Number(id));
  if (!c) continue;
  if (body.broad !== undefined) c.broad = body.broad;
  if (body.fine !== undefined) c.fine = body.fine;
  c.listened = Math.max(c.listened, body.listened_seconds || 0);
  c.judging = Math.max(c.judging, body.judging_seconds || 0);
  c.plays = Math.max(c.plays, body.plays || 0);
  render(c);
  save(c);
}

// --- The current candidate and judging time ----------------------------------------------

let tickStart = performance.now();

function tickJudging() {
  const now = performance.now();
  if (current && document.visibilityState === "visible") current.judging += (now - tickStart) / 1000;
  tickStart = now;
}
setInterval(tickJudging, 1000);
document.addEventListener("visibilitychange", () => { tickStart = performance.now(); });

function makeCurrent(c, { focus = true } = {}) {
  if (current !== c) {
    tickJudging();
    if (current) {
      current.section.classList.remove("current");
      current.section.removeAttribute("aria-current");
      save(current, { soon: true });
    }
    current = c;
    c.section.classList.add("current");
    c.section.setAttribute("aria-current", "true");
  }
  if (focus) {
    c.section.focus({ preventScroll: true });
    c.section.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }
}

function pauseAllBut(audio) {
  for (const other of document.querySelectorAll("audio")) if (other !== audio) other.pause();
}

function toggle(audio) {
  if (audio.paused) audio.play().catch(() => {});
  else audio.pause();
}

// --- Keyboard ----------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey) return;
  const target = event.target;
  const typing = target.matches?.("input[type=number], input[type=text], textarea, select");
  const onButton = target.matches?.("button, a, summary");
  if (typing) return; // digits and arrows edit the number there
  const c = current;
  switch (event.key) {
    case " ":
      if (onButton) return;
      event.preventDefault();
      if (target === queryAudio) toggle(queryAudio);
      else if (c) toggle(c.audio);
      else if (candidates[0]) { makeCurrent(candidates[0]); toggle(candidates[0].audio); }
      break;
    case "q": case "Q":
      event.preventDefault();
      toggle(queryAudio);
      break;
    case "1": case "2": case "3":
      if (!c) return;
      event.preventDefault();
      setBroad(c, Number(event.key) - 1);
      break;
    case "ArrowLeft": case "ArrowRight": case "ArrowUp": case "ArrowDown": {
      if (!c) return;
      event.preventDefault();
      const step = { ArrowLeft: -1, ArrowRight: 1, ArrowDown: -10, ArrowUp: 10 }[event.key];
      setFine(c, (c.fine ?? 50) + step, { soon: true });
      break;
    }
    case "n": case "N": case "p": case "P": {
      event.preventDefault();
      const index = c ? candidates.indexOf(c) : -1;
      const next = event.key.toLowerCase() === "n" ? index + 1 : Math.max(index - 1, 0);
      if (candidates[next]) {
        if (c && !c.audio.paused) c.audio.pause();
        makeCurrent(candidates[next]);
      }
      break;
    }
    default:
  }
});

// Resume where the assessor left off: the first candidate not yet done is current.
const resumeAt = candidates.find((c) => !isDone(c)) || candidates[0];
if (resumeAt) makeCurrent(resumeAt, { focus: candidates.some(isDone) });
