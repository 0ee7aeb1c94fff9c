// The head judge's live screens: the round's clock drawn from the server's time (it keeps
// running when the network drops), the floor map and queues refreshed on live notices, time
// credits counting down, and the relay's rotation signal.
import { LiveFeed, ServerClock, clockFace, formatDuration, roundClock, singleFlight } from "./live.js";
import { RotationSignals } from "./relay.js";

const config = JSON.parse(document.getElementById("headjudge-config").textContent);
const words = config.words;
const serverClock = new ServerClock();
// Until the first measurement, trust the time the page was made at.
serverClock.offsetMs = Date.parse(config.clock.server_now) - Date.now();

let clockJson = config.clock;
let shownState = config.clock.state;
let etag = null;
let askedAtLimit = false;

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

const signals = new RotationSignals({
  onSignal(at) {
    const box = $(`[data-signal-at="${at}"]`);
    if (box) box.classList.add("flash");
    refresh();
  },
});

function tick() {
  const now = roundClock(clockJson, serverClock);
  const remaining = $("[data-clock-remaining]");
  // A round without a time limit keeps the dash the page was drawn with.
  if (remaining && clockJson.limit_seconds !== null) {
    const face = clockFace(now, clockJson, words);
    const box = $("[data-clock-box]");
    box.dataset.shows = now.shows;
    $("[data-clock-word]", box).textContent =
      now.shows === "waiting" ? words.waiting : words.states[now.state] || now.state;
    $("[data-clock-label]", box).textContent = face.label;
    remaining.textContent = face.value;
    // Once assembly ended the elapsed time stands at the end.
    let elapsed = now.shows === "countdown" || now.endedAtMs === null || !clockJson.started_at
      ? now.elapsedMs : Math.max(0, now.endedAtMs - Date.parse(clockJson.started_at));
    if (now.shows === "waiting") elapsed = 0; // the next group has not started
    $("[data-clock-elapsed]").textContent = formatDuration(elapsed);
    box.classList.toggle("over", now.shows === "counting");
  }
  for (const element of $$("[data-countdown-to]")) {
    const left = Number(element.dataset.countdownTo) - serverClock.now();
    element.textContent = formatDuration(left, { roundUp: true });
  }
  // At the limit the round reads as counting (the live pump writes the move): refresh.
  if (now.state === "counting" && clockJson.state === "running" && !askedAtLimit) {
    askedAtLimit = true;
    refresh();
  }
  signals.check(now.elapsedMs, clockJson.state === "running" || clockJson.state === "counting");
}

/** True while the head judge works in a panel: a live update then waits. */
function editing(panel) {
  const active = document.activeElement;
  const typing = active && panel.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
  return typing || panel.dataset.dirty === "1" || $("details[open]", panel) !== null;
}

function setPanel(panel, html) {
  if (editing(panel)) {
    panel.dataset.pending = html;
    setStatus("stale");
    return;
  }
  delete panel.dataset.pending;
  if (panel.innerHTML !== html) panel.innerHTML = html;
  bindSound();
}

function applyPending(panel) {
  if (panel.dataset.pending !== undefined) setPanel(panel, panel.dataset.pending);
}

for (const panel of $$("[data-panel]")) {
  panel.addEventListener("input", () => { panel.dataset.dirty = "1"; });
  panel.addEventListener("toggle", (event) => {
    if (!event.target.open) {
      delete panel.dataset.dirty;
      applyPending(panel);
    }
  }, true);
  panel.addEventListener("focusout", () => setTimeout(() => applyPending(panel), 0));
}

function apply(data) {
  if (data.round.state !== shownState) {
    shownState = data.round.state;
    // New state, new moves: the round page is drawn again (unless a form is being filled in).
    if (config.page === "round" && !$$("[data-panel]").some(editing)) {
      window.location.reload();
      return;
    }
    for (const badge of $$("[data-round-state]")) {
      badge.textContent = data.round.state_label;
      badge.className = `badge round-state state-${data.round.state}`;
    }
  }
  clockJson = data.clock;
  askedAtLimit = false;
  for (const table of data.tables) {
    for (const seat of table.seats) {
      const rect = $(`rect.seat[data-entry="${seat.entry}"]`);
      if (!rect) continue;
      const before = rect.getAttribute("class");
      const after = `seat state-${seat.state}${seat.cancelled ? " cancelled" : ""}`;
      if (before === after || before === `${after} changed`) continue;
      rect.setAttribute("class", `${after} changed`);
      setTimeout(() => rect.setAttribute("class", after), 3000);
      const title = $("title", rect);
      if (title) title.textContent = `${rect.dataset.title} · ${config.stateLabels[seat.state]}`;
    }
  }
  for (const [state, count] of Object.entries(data.counts)) {
    const cell = $(`[data-count="${state}"]`);
    if (cell) cell.textContent = String(count);
  }
  for (const [name, html] of Object.entries(data.panels)) {
    const panel = $(`[data-panel="${name}"]`);
    if (panel) setPanel(panel, html);
  }
  signals.setSignals(data.relay ? data.relay.signals : []);
}

const refresh = singleFlight(async () => {
  let response;
  try {
    response = await fetch(config.stateUrl, {
      headers: etag ? { "If-None-Match": etag } : {}, cache: "no-store", credentials: "same-origin",
    });
  } catch {
    return; // offline: the clock runs on, the next notice or poll catches up
  }
  if (response.status === 304 || !response.ok) return;
  etag = response.headers.get("ETag");
  apply(await response.json());
});

function setStatus(status) {
  const box = $("[data-live-status]");
  if (!box) return;
  const offline = !navigator.onLine;
  const text = offline ? words.offline : status === "reconnecting" ? words.polling
    : (words[status] || words.connecting);
  box.textContent = text;
  box.parentElement.classList.toggle("offline", offline || status === "reconnecting");
}

function bindSound() {
  const button = $("[data-sound-toggle]");
  if (!button || button.dataset.bound) return;
  button.dataset.bound = "1";
  const show = () => {
    button.setAttribute("aria-pressed", String(signals.soundOn));
    button.textContent = signals.soundOn ? words.soundOff : words.soundOn;
  };
  show();
  button.addEventListener("click", async () => {
    await signals.toggleSound();
    show();
  });
}

const feed = new LiveFeed(config.slug, {
  lastSeq: config.seq,
  onChange(notice) {
    if (notice.round === null || notice.round === config.round) refresh();
  },
  onGap: () => refresh(),
  onStatus: setStatus,
});

window.addEventListener("offline", () => setStatus("reconnecting"));
window.addEventListener("online", () => {
  // Back online: reconnect the feed now rather than after its retry delay, and catch up.
  if (feed.status !== "live") {
    feed.stop();
    feed.start();
  }
  setStatus(feed.status);
  refresh();
});

// What the browser tests read: the clock as this page draws it.
window.headjudge = {
  elapsedMs: () => roundClock(clockJson, serverClock).elapsedMs,
  state: () => roundClock(clockJson, serverClock).state,
  serverClock,
  signals,
};

bindSound();
setStatus("connecting");
signals.setSignals(config.signals);
serverClock.start();
feed.start();
setInterval(tick, 200);
// Credits run out and relay moves come due without a notice: look again now and then, and
// often while the notice feed is down (the ETag keeps an unchanged answer small).
let lastPoll = Date.now();
setInterval(() => {
  if (feed.status !== "live" || Date.now() - lastPoll > 20_000) {
    lastPoll = Date.now();
    refresh();
  }
}, 5_000);
tick();
