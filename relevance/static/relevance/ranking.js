// The ranking page of an expert-ranking campaign: the assessor orders the candidates by
// drag and drop, by the "Move up"/"Move down" buttons, or by keyboard (Space or Enter to
// pick up, arrows to move, Space or Enter to drop, Escape to put back), with every move
// announced. The order is saved at every move (and kept in this browser until the server
// has it); "Submit my ranking" makes it count. No build step; one module for one page,
// with the assignment page's way of saving (save_json.js).

import { postJson, retryDelay } from "./save_json.js";

const root = document.getElementById("ranking-page");
const saveUrl = root.dataset.saveUrl;
const mustListen = Number(root.dataset.mustListen);
const isOpen = root.dataset.open === "true";
const csrfToken = root.querySelector("[name=csrfmiddlewaretoken]").value;
const pendingKey = `earshot:ranking:${saveUrl}:pending`;
const { listenTolerance: LISTEN_TOLERANCE } = JSON.parse(
  document.getElementById("ranking-constants").textContent,
);
const list = document.getElementById("ranking");
const statusEl = document.getElementById("save-status");
const announceEl = document.getElementById("ranking-announce");
const finishedEl = document.getElementById("finished");
const submitButton = document.getElementById("submit-ranking");
const queriesDoneEl = document.getElementById("queries-done");
const queryAudio = document.getElementById("query-audio");
const items = [...list.querySelectorAll("li.ranked")].map(setUp);
let picked = null; // { item, from, next } while a candidate is held by the keyboard
let dragged = null;
let submitted = !finishedEl.hidden;

function setUp(li) {
  const item = {
    li,
    id: Number(li.dataset.candidate),
    name: `Candidate ${li.dataset.number}`,
    audio: li.querySelector("audio"),
    listenEl: li.querySelector(".listen"),
    heard: Number(li.dataset.heard),
    lastTime: null,
  };
  item.audio.addEventListener("play", () => {
    item.lastTime = item.audio.currentTime;
    for (const other of document.querySelectorAll("audio")) if (other !== item.audio) other.pause();
  });
  item.audio.addEventListener("timeupdate", () => {
    const now = item.audio.currentTime;
    if (!item.audio.paused && item.lastTime !== null) {
      const step = now - item.lastTime;
      if (step > 0 && step < 1.5) item.heard += step;
    }
    item.lastTime = now;
    render(item);
  });
  for (const event of ["pause", "ended", "seeking"]) {
    item.audio.addEventListener(event, () => { item.lastTime = null; });
  }
  li.querySelector("button.up").addEventListener("click", () => moveBy(item, -1));
  li.querySelector("button.down").addEventListener("click", () => moveBy(item, +1));
  li.addEventListener("keydown", (event) => onKey(item, event));
  li.addEventListener("dragstart", (event) => {
    if (!canPlace(item)) { event.preventDefault(); refuse(item); return; }
    dragged = { item, before: order().join() };
    li.classList.add("dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", String(item.id));
  });
  li.addEventListener("dragover", (event) => {
    if (!dragged || dragged.item === item) return;
    const box = li.getBoundingClientRect();
    const after = event.clientY > box.top + box.height / 2;
    list.insertBefore(dragged.item.li, after ? li.nextSibling : li);
  });
  li.addEventListener("dragend", () => {
    li.classList.remove("dragging");
    if (dragged && dragged.before !== order().join()) placed(dragged.item);
    dragged = null;
  });
  return item;
}

// The whole list is a drop target: the browser then shows a move, and the drop lands.
list.addEventListener("dragover", (event) => { if (dragged) event.preventDefault(); });
list.addEventListener("drop", (event) => { if (dragged) event.preventDefault(); });

queryAudio.addEventListener("play", () => {
  for (const item of items) item.audio.pause();
});

function canPlace(item) { return item.heard + LISTEN_TOLERANCE >= mustListen; }

function render(item) {
  const left = Math.max(0, mustListen - item.heard);
  item.listenEl.hidden = canPlace(item);
  item.listenEl.textContent = canPlace(item)
    ? ""
    : `Listen to at least ${mustListen} s before placing it (${Math.ceil(left)} s to go).`;
  item.li.draggable = isOpen && canPlace(item);
  item.li.classList.toggle("unheard", !canPlace(item));
}

function order() { return [...list.querySelectorAll("li.ranked")].map((li) => Number(li.dataset.candidate)); }
function placeOf(item) { return order().indexOf(item.id) + 1; }
function announce(text) { announceEl.textContent = ""; setTimeout(() => { announceEl.textContent = text; }, 50); }
function refuse(item) { announce(`${item.name}: listen to at least ${mustListen} s of it before placing it.`); }

function renumber() {
  for (const [i, li] of [...list.children].entries()) li.querySelector(".place").textContent = i + 1;
}

function moveBy(item, step) {
  if (!isOpen) return;
  if (!canPlace(item)) { refuse(item); return; }
  const li = item.li;
  const target = step < 0 ? li.previousElementSibling : li.nextElementSibling;
  if (!target) { announce(`${item.name} is already ${step < 0 ? "first" : "last"}.`); return; }
  list.insertBefore(li, step < 0 ? target : target.nextSibling);
  placed(item);
  li.querySelector(step < 0 ? "button.up" : "button.down").focus();
}

function placed(item) {
  renumber();
  announce(`${item.name} is now at place ${placeOf(item)} of ${items.length}.`);
  save();
}

function onKey(item, event) {
  if (event.target !== item.li) return; // the player and buttons keep their own keys
  const key = event.key;
  if (picked && picked.item === item) {
    if (key === "ArrowUp" || key === "ArrowDown") {
      event.preventDefault();
      const target = key === "ArrowUp" ? item.li.previousElementSibling : item.li.nextElementSibling;
      if (target) list.insertBefore(item.li, key === "ArrowUp" ? target : target.nextSibling);
      renumber();
      item.li.focus();
      announce(`${item.name}, place ${placeOf(item)} of ${items.length}.`);
    } else if (key === " " || key === "Enter") {
      event.preventDefault();
      item.li.classList.remove("picked");
      picked = null;
      placed(item);
      announce(`${item.name} dropped at place ${placeOf(item)} of ${items.length}.`);
    } else if (key === "Escape") {
      event.preventDefault();
      list.insertBefore(item.li, picked.next);
      renumber();
      item.li.classList.remove("picked");
      picked = null;
      item.li.focus();
      announce(`${item.name} put back at place ${placeOf(item)}.`);
    }
    return;
  }
  if (key === " " || key === "Enter") {
    event.preventDefault();
    if (!isOpen) return;
    if (!canPlace(item)) { refuse(item); return; }
    picked = { item, from: placeOf(item), next: item.li.nextElementSibling };
    item.li.classList.add("picked");
    announce(`${item.name} picked up at place ${picked.from} of ${items.length}. Arrow keys move it; Space or Enter drops it.`);
  } else if (key === "ArrowUp" || key === "ArrowDown") {
    event.preventDefault();
    const next = key === "ArrowUp" ? item.li.previousElementSibling : item.li.nextElementSibling;
    if (next) next.focus();
  }
}

// --- Saving ---------------------------------------------------------------------------

function setStatus(text, kind) { statusEl.textContent = text; statusEl.dataset.kind = kind; }

let inFlight = false;
let again = false; // a save came while another was on its way
let submitAgain = false; // … or a submission

function save() {
  try { localStorage.setItem(pendingKey, JSON.stringify(order())); } catch { /* private mode */ }
  send({ submit: false });
}

async function send({ submit, attempt = 0 }) {
  if (inFlight && attempt === 0) {
    if (submit) submitAgain = true; else again = true;
    return;
  }
  inFlight = true;
  setStatus(submit ? "Submitting…" : "Saving…", "saving");
  const body = { order: order(), submit };
  const sent = await postJson(saveUrl, body, csrfToken);
  if (sent.saved) {
    if (JSON.stringify(body.order) === localStorage.getItem(pendingKey)) localStorage.removeItem(pendingKey);
    if (submit) {
      if (!submitted) queriesDoneEl.textContent = Number(queriesDoneEl.textContent) + 1;
      submitted = true;
      finishedEl.hidden = false;
      submitButton.textContent = "Submit my ranking again";
      setStatus("Ranking submitted", "saved");
      announce("Your ranking is submitted.");
    } else {
      setStatus("All changes saved", "saved");
    }
  } else if (sent.refused) {
    setStatus(`Not ${submit ? "submitted" : "saved"}: ${sent.refused}`, "error");
  }
  inFlight = false;
  if (sent.retry) {
    setStatus("Not saved yet — retrying…", "error");
    setTimeout(() => send({ submit, attempt: attempt + 1 }), retryDelay(attempt));
  } else if (submitAgain) {
    submitAgain = again = false;
    send({ submit: true });
  } else if (again) {
    again = false;
    send({ submit: false });
  }
}

submitButton.addEventListener("click", () => send({ submit: true }));

// An order a crash kept from reaching the server is put back and sent again.
try {
  const pending = JSON.parse(localStorage.getItem(pendingKey) || "null");
  if (Array.isArray(pending) && pending.length === items.length) {
    for (const id of pending) {
      const item = items.find((i) => i.id === id);
      if (item) list.appendChild(item.li);
    }
    renumber();
    save();
  }
} catch { /* nothing kept */ }

for (const item of items) render(item);
