// The judge's phone: the section's tables, one tap to record a finish, the check, the count at
// the limit and disqualifications. Every record goes to the IndexedDB outbox first and is sent
// from there (judge-outbox.js), in the foreground: after each record, when the network comes
// back, when the page is shown again and, while the server is out of reach, again and again
// after a growing wait (1 s doubling to 30 s): the judge never has to send anything again.
// The page is rendered with the device API's answer (GET /device/me) and its translated words.

import { LiveFeed, ServerClock, clockFace, formatDuration, roundClock, singleFlight } from "./live.js";
import {
  Outbox, entryKey, rebase, requestBody, retryDelay, sendWaiting, serverFailuresWaiting,
} from "./judge-outbox.js";
import {
  RoundData, SpareRecords, canKeepScreen, guardLeaving, keepScreen, lostRecords, newerMe,
  storageReason, workerReason,
} from "./judge-offline.js";

const REFRESH_MS = 30_000;
const SEND_TIMEOUT_MS = 15_000;

const root = document.getElementById("judge");
const L = readJson("judge-labels");
const auth = { Authorization: `Bearer ${root.dataset.token}` };
const clock = new ServerClock({ url: root.dataset.timeUrl });
const outbox = new Outbox(`puzzlecomp-judge-${root.dataset.slug}`);
const sheet = document.getElementById("sheet");
const roundData = new RoundData(root.dataset.slug);
const kept = roundData.load();
const spare = new SpareRecords(root.dataset.slug);
// After a reload without the network the page may be the phone's copy: the round's data kept
// since is newer, and the clock runs on from the offset measured last.
if (kept.offsetMs !== null) clock.offsetMs = kept.offsetMs;

const state = {
  me: newerMe(readJson("judge-state"), kept.me),
  items: [],
  // Records the outbox's storage refused (full, unavailable): sent from the page, kept in the
  // spare storage while it takes them (`spare`: true), else in this page only.
  unkept: spare.load().map((item) => ({ ...item, spare: true })),
  // What the screen says about the phone's copy and storage (renderApp).
  app: { worker: canKeepScreen() ? "starting" : "plain-http", workerError: null,
         storage: null, roundData: null, restored: 0 },
  roundId: Number(new URLSearchParams(location.search).get("round")) || null,
  networkDown: false,
  revoked: null,
};

function readJson(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

/** A label with its %(name)s placeholders filled in. */
function t(key, params = {}) {
  return fill(L[key] ?? key, params);
}

/** A label with a count: the server sends its plural forms for 0 to 5 (labels.py). */
function tn(key, count, params = {}) {
  return fill(L[key][Math.min(count, 5)], { ...params, count });
}

function fill(text, params) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));
}

/** A DOM element: h("button", {class: "big", onclick}, "text", child, ...). */
function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) element.append(child);
  }
  return element;
}

const clone = (value) => (value === null ? null : JSON.parse(JSON.stringify(value)));
const time = (seconds) => formatDuration(seconds * 1000);

// ------------------------------------------------------------------ rounds and entries
function currentRound() {
  const rounds = state.me.rounds;
  return rounds.find((r) => r.id === state.roundId) ?? rounds[0] ?? null;
}

function findEntry(roundId, number) {
  const round = state.me.rounds.find((r) => r.id === roundId);
  for (const table of round?.tables ?? []) {
    const entry = table.entries.find((e) => e.number === number);
    if (entry) return { round, entry };
  }
  return { round, entry: null };
}

/** The page's records, those the storage refused among them, in the order they were made. */
function allItems() {
  return state.unkept.length
    ? [...state.items, ...state.unkept].sort((a, b) => a.order - b.order) : state.items;
}

function itemsOf(roundId, number) {
  const key = entryKey(roundId, number);
  return allItems().filter((i) => entryKey(i.round_id, i.entry) === key);
}

const isMulti = (round) => round.puzzle_sizes.length > 1;
const stageOf = (round, puzzle) => round.stages.find((stage) => stage.includes(puzzle));

function freshPuzzles(round) {
  return round.puzzle_sizes.map((_, i) => ({
    time: null, pieces: 0, remaining: null, missing: 0, contiguous: 0, found: 0,
    verified: false, authorised: round.stages[0].includes(i + 1),
  }));
}

const EMPTY = {
  status: null, time_seconds: null, pieces: null, remaining: null, missing: 0,
  missing_contiguous: 0, missing_found: 0, time_credit: 0, puzzles: [], checked: false,
  competitor_confirmed: false, note: "",
};

/** The result as it will be once the entry's waiting records arrive (shown at once). */
function effective(round, entry) {
  let result = clone(entry.result);
  let pending = false;
  for (const item of itemsOf(round.id, entry.number)) {
    // Until the judge decides, a refused or conflicting record shows as a notice only.
    if (item.state !== "waiting") break;
    result = applyLocally(round, result, item);
    pending = true;
  }
  return { result, pending };
}

function counted(base, values) {
  return { ...base, status: "unfinished", time_seconds: null, pieces: values.pieces ?? null,
           remaining: values.remaining ?? null, missing: 0, missing_contiguous: 0,
           missing_found: 0, checked: true };
}

function applyLocally(round, result, item) {
  const base = result ?? { ...EMPTY };
  const v = item.values;
  if (item.action === "dsq") {
    // As the server stores it: a dsq holds no per-puzzle times, counts or missing pieces.
    return { ...base, status: "dsq", time_seconds: null, pieces: null, remaining: null,
             missing: 0, missing_contiguous: 0, missing_found: 0, puzzles: [],
             checked: true, note: v.note };
  }
  if (!isMulti(round)) {
    if (item.action === "tap") {
      return { ...base, status: "finished", time_seconds: v.time_seconds, pieces: null,
               remaining: null, missing: 0, missing_contiguous: 0, missing_found: 0,
               checked: false, competitor_confirmed: false };
    }
    if (item.action === "verify" && v.complete_and_correct) {
      return { ...base, missing: v.missing, missing_contiguous: v.missing_contiguous,
               missing_found: v.missing_found, checked: true, competitor_confirmed: true };
    }
    return counted(base, v);
  }
  const puzzles = base.puzzles.length ? clone(base.puzzles) : freshPuzzles(round);
  const puzzle = puzzles[item.puzzle - 1];
  if (item.action === "authorise") {
    for (const n of stageOf(round, item.puzzle)) puzzles[n - 1].authorised = true;
  } else if (item.action === "tap") {
    Object.assign(puzzle, { time: v.time_seconds, pieces: null, remaining: null, missing: 0,
                            contiguous: 0, found: 0, verified: false });
  } else if (item.action === "verify" && v.complete_and_correct) {
    Object.assign(puzzle, { missing: v.missing, contiguous: v.missing_contiguous,
                            found: v.missing_found, verified: true });
  } else {
    Object.assign(puzzle, { time: null, pieces: v.pieces ?? null, remaining: v.remaining ?? null,
                            verified: true });
  }
  return {
    ...base, puzzles,
    status: puzzles.every((p) => p.time !== null) ? "finished" : "unfinished",
    checked: puzzles.every((p) => p.verified || !p.authorised),
  };
}

// ------------------------------------------------------------------ the clock
function elapsedSeconds(round) {
  return Math.floor(roundClock(round.clock, clock).elapsedMs / 1000);
}

function liveState(round) {
  return roundClock(round.clock, clock).state;
}

function renderClock() {
  const box = document.getElementById("clock");
  const round = currentRound();
  if (!round) {
    box.replaceChildren();
    return;
  }
  const now = roundClock(round.clock, clock);
  const face = clockFace(now, round.clock, { timeLeft: L.left, timeLimit: L.time_limit,
                                             endedAt: L.ended_at, timeZone: L.time_zone });
  // Once assembly ended the elapsed time stands at the end (no clock runs on).
  const elapsedMs = now.endedAtMs === null || now.shows === "countdown"
    ? now.elapsedMs : Math.max(0, now.endedAtMs - Date.parse(round.clock.started_at));
  box.dataset.state = now.state;
  box.dataset.shows = now.shows;
  box.replaceChildren(
    h("div", { class: "clock-numbers" },
      h("span", {}, h("small", {}, L.elapsed), h("b", { id: "clock-elapsed" },
                                                   formatDuration(elapsedMs))),
      h("span", {}, h("small", {}, face.label), h("b", { id: "clock-left" }, face.value))),
    h("div", { class: "clock-state" }, t(`state_${now.state}`)),
  );
}

// ------------------------------------------------------------------ describing results
function describe(round, result) {
  if (result === null || result.status === null) {
    if (isMulti(round)) return "";
    return liveState(round) === "running" ? L.assembling : L.to_count;
  }
  if (result.status === "dsq") return t("disqualified", { reason: result.note });
  // Each puzzle of a multi-puzzle round has its own line until the last one is finished.
  if (isMulti(round) && result.status !== "finished") return "";
  if (result.status === "finished") {
    const seconds = isMulti(round) ? Math.max(...result.puzzles.map((p) => p.time ?? 0))
      : result.time_seconds ?? 0;
    const shown = time(seconds);
    if (!result.checked) return t("to_check", { time: shown });
    return result.missing ? t("verified_missing", { time: shown, missing: result.missing })
      : t("verified", { time: shown });
  }
  if (result.status === "unfinished") {
    return result.remaining !== null ? tn("counted_remaining", result.remaining)
      : tn("counted", result.pieces ?? 0);
  }
  return t("status_other", { status: result.status });
}

/** The whole result in one line (conflicts): every puzzle of a multi-puzzle round. */
function describeAll(round, result) {
  if (isMulti(round) && result?.puzzles?.length && result.status !== "finished"
      && result.status !== "dsq") {
    return result.puzzles.map((p, i) => `${i + 1}: ${describePuzzle(round, p)}`).join(" · ");
  }
  return result ? describe(round, result) : L.nothing;
}

function describePuzzle(round, puzzle) {
  if (!puzzle.authorised) return L.locked;
  if (puzzle.time !== null) {
    if (!puzzle.verified) return t("to_check", { time: time(puzzle.time) });
    return puzzle.missing ? t("verified_missing", { time: time(puzzle.time),
                                                    missing: puzzle.missing })
      : t("verified", { time: time(puzzle.time) });
  }
  if (puzzle.verified) {
    return puzzle.remaining !== null ? tn("counted_remaining", puzzle.remaining)
      : tn("counted", puzzle.pieces ?? 0);
  }
  return liveState(round) === "running" ? L.assembling : L.to_count;
}

function describeItem(item) {
  const v = item.values;
  const what = {
    tap: () => t("action_tap", { time: time(v.time_seconds ?? 0) }),
    verify: () => (v.complete_and_correct ? t("action_verify", { missing: v.missing })
      : L.action_verify_wrong),
    count: () => L.action_count,
    dsq: () => L.action_dsq,
    authorise: () => t("action_authorise", { puzzle: item.puzzle }),
  }[item.action]();
  return item.puzzle && item.action !== "authorise"
    ? `${t("puzzle", { puzzle: item.puzzle })}: ${what}` : what;
}

// ------------------------------------------------------------------ the tables
function actionButton(action, label, onclick, primary = false) {
  return h("button", { type: "button", class: primary ? "big" : "secondary",
                       dataset: { action }, onclick }, label);
}

/** Whether the entry may still finish: the round runs, or its own time credit runs on. */
function stillTiming(round, result) {
  const now = roundClock(round.clock, clock, { creditSeconds: result?.time_credit ?? 0 });
  return Boolean(round.clock.started_at) && now.remainingMs > 0;
}

function singleActions(round, entry, result) {
  const running = liveState(round) === "running";
  const timing = stillTiming(round, result);
  const buttons = [];
  if (result?.status === "dsq") return buttons;
  const unchecked = result?.status === "finished" && !result.checked;
  if (result === null || result.status === null) {
    if (timing) buttons.push(actionButton("tap", L.time, () => tap(round, entry, null), true));
  } else if (unchecked) {
    buttons.push(actionButton("check", L.check, () => openVerify(round, entry, null), true));
    if (timing) buttons.push(actionButton("tap", L.time_again, () => tap(round, entry, null)));
  }
  if (!result || !result.checked || result.status === "unfinished") {
    buttons.push(actionButton("count", L.count, () => openCount(round, entry, null),
                              !running && !unchecked && !timing));
  }
  // A checked finish's missing pieces may be corrected until the results are provisional.
  if (result?.status === "finished" && result.checked
      && ["running", "counting"].includes(liveState(round))) {
    buttons.push(actionButton("correct", L.correct_check, () => openVerify(
      round, entry, null, null, { missing: result.missing,
                                  missing_contiguous: result.missing_contiguous,
                                  missing_found: result.missing_found })));
  }
  buttons.push(actionButton("dsq", L.dsq, () => openDsq(round, entry)));
  return buttons;
}

function puzzleRows(round, entry, result) {
  const puzzles = result?.puzzles?.length ? result.puzzles : freshPuzzles(round);
  const running = liveState(round) === "running";
  const timing = stillTiming(round, result);
  return puzzles.map((puzzle, i) => {
    const number = i + 1;
    const buttons = [];
    const stage = stageOf(round, number);
    if (!puzzle.authorised) {
      const before = round.stages[round.stages.indexOf(stage) - 1] ?? [];
      const ready = before.every((n) => puzzles[n - 1].time !== null && puzzles[n - 1].verified);
      if (ready && stage[0] === number) {
        const label = stage.length > 1 ? t("open_puzzles", { puzzles: stage.join(", ") })
          : t("open_puzzle", { puzzle: number });
        buttons.push(actionButton("open", label,
                                  () => record(round, entry, "authorise", number, {}), true));
      }
    } else if (puzzle.time === null && !puzzle.verified) {
      if (timing) buttons.push(actionButton("tap", L.time, () => tap(round, entry, number), true));
      if (!running) {
        buttons.push(actionButton("count", L.count, () => openCount(round, entry, number),
                                  true));
      }
    } else if (puzzle.time !== null && !puzzle.verified) {
      buttons.push(actionButton("check", L.check, () => openVerify(round, entry, number), true));
      if (timing) buttons.push(actionButton("tap", L.time_again, () => tap(round, entry, number)));
    }
    return h("div", { class: "puzzle", dataset: { puzzle: number } },
      h("div", { class: "puzzle-name" }, t("puzzle", { puzzle: number }),
        h("small", {}, ` ${tn("pieces_of", round.puzzle_sizes[i])}`)),
      h("div", { class: "puzzle-state" }, describePuzzle(round, puzzle)),
      h("div", { class: "actions" }, buttons));
  });
}

function entryCard(round, entry) {
  const { result, pending } = effective(round, entry);
  const items = itemsOf(round.id, entry.number);
  const held = items.some((i) => i.state !== "waiting");
  const unkept = items.some((i) => i.error_name);
  const multi = isMulti(round);
  return h("article", {
    class: `entry${pending ? " pending" : ""}${held ? " held" : ""}`,
    id: `entry-${entry.number}`,
    dataset: { entry: entry.number, status: result?.status ?? "none",
               checked: String(Boolean(result?.checked)) },
  },
    h("div", { class: "entry-head" },
      h("span", { class: "number" }, `${entry.number}`),
      h("span", { class: "name" }, entry.name),
      entry.country ? h("span", { class: "country" }, entry.country) : null,
      entry.no_show ? h("span", { class: "badge" }, L.no_show) : null),
    h("div", { class: "entry-state" }, describe(round, result),
      held ? h("span", { class: "held-mark" }, ` · ${L.held_mark}`)
        : unkept ? h("span", { class: "held-mark" }, ` · ${L.unkept_mark}`)
          : pending ? h("span", { class: "waiting-mark" }, ` · ${L.waiting_mark}`) : null),
    multi ? h("div", { class: "puzzles" }, puzzleRows(round, entry, result),
              h("div", { class: "actions" },
                result?.status === "dsq" ? null
                  : actionButton("dsq", L.dsq, () => openDsq(round, entry))))
      : h("div", { class: "actions" }, singleActions(round, entry, result)),
  );
}

function renderTabs() {
  const rounds = state.me.rounds;
  const current = currentRound();
  document.getElementById("rounds").replaceChildren(...(rounds.length > 1 ? rounds.map((r) =>
    h("button", { type: "button", class: r === current ? "tab active" : "tab",
                  onclick: () => { state.roundId = r.id; render(); } },
      `${r.event} · ${r.name}`)) : []));
  const groups = current?.groups ?? [];
  const chosen = currentGroup(current);
  document.getElementById("groups").replaceChildren(...(groups.length > 1 ? groups.map((g) =>
    h("button", { type: "button", class: g === chosen ? "tab active" : "tab",
                  onclick: () => {
                    localStorage.setItem(`judge-group-${current.id}`, g);
                    render();
                  } },
      t("group", { group: g }))) : []));
}

function currentGroup(round) {
  if (!round || round.groups.length < 2) return null;
  const kept = localStorage.getItem(`judge-group-${round.id}`);
  return round.groups.includes(kept) ? kept : round.groups[0];
}

// A section of many tables starts as a compact list (one line per entrant); the judge's choice
// is kept on the phone.
const COMPACT_FROM_TABLES = 6;

function compactList(tables) {
  const kept = localStorage.getItem("judge-compact");
  return kept === null ? tables > COMPACT_FROM_TABLES : kept === "true";
}

document.getElementById("compact").addEventListener("click", (event) => {
  const pressed = event.currentTarget.getAttribute("aria-pressed") === "true";
  localStorage.setItem("judge-compact", String(!pressed));
  render();
});

function renderTables() {
  const box = document.getElementById("tables");
  const round = currentRound();
  if (!round) {
    box.replaceChildren(h("p", { class: "empty" }, L.no_rounds));
    return;
  }
  const group = currentGroup(round);
  const tables = round.tables.map((table) => ({
    table: table.table,
    entries: table.entries.filter((e) => group === null || e.group === group),
  })).filter((table) => table.entries.length);
  if (!tables.length) {
    box.replaceChildren(h("p", { class: "empty" }, L.no_tables));
    return;
  }
  const compact = compactList(tables.length);
  box.classList.toggle("compact", compact);
  document.getElementById("compact").setAttribute("aria-pressed", String(compact));
  box.replaceChildren(...tables.map((table) =>
    h("section", { class: "table", id: `table-${table.table}` },
      h("h2", {}, t("table", { table: table.table })),
      table.entries.map((entry) => entryCard(round, entry)))));
}

// ------------------------------------------------------------------ notices and sync state
function entryName(item) {
  return findEntry(item.round_id, item.entry).entry?.name ?? "";
}

function refusalText(body) {
  if (!body) return "";
  if (Array.isArray(body.violations)) return body.violations.map((v) => v.message).join(" ");
  if (Array.isArray(body.detail)) return body.detail.map((d) => d.msg).join(" ");
  return body.detail ?? "";
}

function renderNotices() {
  const notices = allItems().filter((i) => i.state !== "waiting").map((item) => {
    const title = `${entryName(item)}`;
    if (item.state === "conflict") {
      const { round } = findEntry(item.round_id, item.entry);
      return h("article", { class: "notice conflict", dataset: { clientId: item.client_id } },
        h("h3", {}, t("conflict_title", { entry: item.entry }), h("small", {}, ` ${title}`)),
        h("dl", {},
          h("dt", {}, L.conflict_mine), h("dd", { class: "mine" }, describeItem(item)),
          h("dt", {}, L.conflict_theirs), h("dd", { class: "theirs" },
                                            round ? describeAll(round, item.current) : "")),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "secondary", dataset: { resolve: "theirs" },
                        onclick: () => keepTheirs(item) }, L.keep_theirs),
          h("button", { type: "button", dataset: { resolve: "mine" },
                        onclick: () => sendMineAgain(item) }, L.send_mine)));
    }
    return h("article", { class: "notice refused", dataset: { clientId: item.client_id } },
      h("h3", {}, t("refused_title", { entry: item.entry }), h("small", {}, ` ${title}`)),
      h("p", {}, `${describeItem(item)}: ${refusalText(item.error)}`),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", dataset: { resolve: "dismiss" },
                      onclick: () => dismiss(item) }, L.dismiss)));
  });
  const unkept = state.unkept.filter((i) => i.state === "waiting").map((item) => h("article", {
    class: "notice unkept", dataset: { clientId: item.client_id, spare: String(item.spare) } },
    h("h3", {}, t("unkept_title", { entry: item.entry }), h("small", {}, ` ${entryName(item)}`)),
    h("p", {}, `${describeItem(item)}: ${t(item.spare ? "unkept_spare_text" : "unkept_text", {
      reason: storageReason(item.error_name, L) })}`)));
  document.getElementById("notices").replaceChildren(...unkept, ...notices);
}

/** What the screen says about the phone's copy of it and its storage, in the judge's words. */
function renderApp() {
  const app = state.app;
  const waiting = state.items.length + state.unkept.length > 0;
  const lines = [];
  if (app.worker === "plain-http" && (waiting || !navigator.onLine)) {
    lines.push(["plain-http", L.app_plain_http]);
  }
  if (app.worker === "not-kept") {
    lines.push(["not-kept", t("app_not_kept", { reason: workerReason(app.workerError, L) })]);
  }
  if (app.worker === "updating") lines.push(["updating", L.app_updating]);
  if (app.restored) lines.push(["restored", tn("app_restored", app.restored)]);
  const storage = app.storage ?? app.roundData;
  if (storage) lines.push(["storage", t("app_storage", { reason: storageReason(storage, L) })]);
  const box = document.getElementById("app-state");
  box.dataset.state = lines.map(([kind]) => kind).join(" ");
  box.replaceChildren(...lines.map(([kind, text]) => h("p", { dataset: { kind } }, text)));
}

/** How many entrants the outbox items are about (a finish and its check are one entrant). */
function entrantsOf(items) {
  return new Set(items.map((i) => entryKey(i.round_id, i.entry))).size;
}

function renderSync() {
  const box = document.getElementById("sync");
  const waitingItems = state.items.filter((i) => i.state === "waiting");
  const waiting = entrantsOf(waitingItems);
  const attention = entrantsOf(state.items.filter((i) => i.state !== "waiting"));
  const unkept = entrantsOf(state.unkept);
  const offline = !navigator.onLine;
  let text;
  let mode;
  if (state.revoked) {
    text = t("sync_revoked", { reason: state.revoked.detail ?? "" });
    mode = "revoked";
  } else if (attention) {
    text = tn("sync_attention", attention);
    mode = "attention";
  } else if (unkept) {
    text = tn("sync_unkept", unkept);
    mode = "unkept";
  } else if (waiting && offline) {
    text = tn("sync_offline", waiting);
    mode = "offline";
  } else if (waiting && state.networkDown) {
    // Online, but the server does not answer: the phone goes on trying by itself.
    text = tn("sync_retrying", waiting);
    mode = "retrying";
  } else if (waiting) {
    text = tn("sync_waiting", waiting);
    mode = "waiting";
  } else {
    text = offline ? L.sync_offline_none : L.sync_sent;
    mode = offline ? "offline" : "sent";
  }
  box.textContent = text;
  box.dataset.state = mode;
  box.dataset.waiting = String(waiting);
}

function render() {
  renderApp();
  renderTabs();
  renderClock();
  renderNotices();
  renderTables();
  renderSync();
}

// ------------------------------------------------------------------ recording
// Records are made one after another, so each one's base version sees the one before.
let recording = Promise.resolve();

function record(round, entry, action, puzzle, values) {
  const stored = recording.then(() => store(round, entry, action, puzzle, values));
  recording = stored.catch(() => {});
  return stored;
}

async function store(round, entry, action, puzzle, values) {
  const key = entryKey(round.id, entry.number);
  const before = allItems().filter((i) => entryKey(i.round_id, i.entry) === key
                                         && i.state !== "refused");
  // Each write lands on the version the previous one makes (the server adds one per write).
  // The entry is looked up again: a refresh may have replaced the one a form was opened with.
  const known = findEntry(round.id, entry.number).entry ?? entry;
  const base = before.length ? before[before.length - 1].base_version + 1 : known.version;
  const item = outbox.make({ round_id: round.id, entry: entry.number, base_version: base,
                             action, puzzle, values, made_at: new Date().toISOString() });
  try {
    await outbox.put(item);
  } catch (error) {
    // Never lost in silence: sent from the page at once, kept in the spare storage if it takes
    // it, shown to the judge as not kept; the phone keeps trying to store it.
    state.unkept.push({ ...item, error_name: error?.name ?? "Error" });
    keepSpare();
  }
  await reloadItems();
  flush();
  return item;
}

function tap(round, entry, puzzle) {
  // The time is taken now, before anything else: the outbox keeps it even if the phone dies.
  const seconds = elapsedSeconds(round);
  record(round, entry, "tap", puzzle, { time_seconds: seconds });
  openVerify(round, entry, puzzle, seconds);
}

async function reloadItems() {
  let items;
  try {
    items = await outbox.all();
  } catch (error) {
    state.app.storage = error?.name ?? "Error";
    render();
    return;
  }
  state.app.storage = null;
  const lost = lostRecords(state.items, items, outbox.removed);
  if (lost.length) {
    // The phone's storage was cleared under the page: put back what the page still holds.
    state.app.restored += lost.length;
    try {
      await outbox.putAll(lost);
      items = await outbox.all();
    } catch (error) {
      state.unkept.push(...lost.map((item) => ({ ...item, error_name: error?.name ?? "Error" })));
      keepSpare();
    }
  }
  state.items = items;
  // A record both stored and spare (the page stopped between the two): the stored one counts.
  const stored = new Set(items.map((item) => item.client_id));
  if (state.unkept.some((item) => stored.has(item.client_id))) {
    state.unkept = state.unkept.filter((item) => !stored.has(item.client_id));
    keepSpare();
  }
  // Once everything put back is sent, the notice has done its work.
  if (!items.length && !state.unkept.length) state.app.restored = 0;
  render();
  reloadIfIdle();
}

/** Records the storage refused go in again once it takes them (space freed, storage back). */
async function keepUnkept() {
  if (!state.unkept.length) return;
  try {
    await outbox.putAll(state.unkept.map(({ error_name: _, spare: __, ...item }) => item));
    state.unkept = [];
    keepSpare();
    await reloadItems();
  } catch {
    // Still refused: they stay shown as not sent.
  }
}

/** Keep the records the outbox refused in the spare storage; each says whether it is there. */
function keepSpare() {
  const error = spare.save(state.unkept.map(({ spare: _, ...item }) => item));
  state.unkept = state.unkept.map((item) => ({ ...item, spare: error === null }));
}

/** Records in this page only: a reload or leaving the page loses them. */
function inPageOnly() {
  return state.unkept.some((item) => !item.spare);
}

/** Whether the phone keeps a copy of the screen that opens without the network. */
function screenKept() {
  return ["kept", "updating"].includes(state.app.worker) && !state.app.restored;
}

/** What the outbox sends from: the stored records and those only the page (or the spare
 * storage) holds, so a record the storage refused is sent at once while there is a network. */
const sending = {
  async all() {
    let stored = [];
    try {
      stored = await outbox.all();
    } catch (error) {
      // Unreadable storage: the page's records go all the same; flush tries again later.
      state.app.storage = error?.name ?? "Error";
    }
    const ids = new Set(stored.map((item) => item.client_id));
    return [...stored, ...state.unkept.filter((item) => !ids.has(item.client_id))]
      .sort((a, b) => a.order - b.order);
  },
  put(item) {
    const at = state.unkept.findIndex((i) => i.client_id === item.client_id);
    if (at < 0) return outbox.put(item);
    state.unkept[at] = { ...item, error_name: state.unkept[at].error_name };
    keepSpare();
    return Promise.resolve();
  },
  putAll(items) {
    return Promise.all(items.map((item) => sending.put(item)));
  },
  delete(clientId) {
    const at = state.unkept.findIndex((i) => i.client_id === clientId);
    if (at < 0) return outbox.delete(clientId);
    outbox.removed.add(clientId);
    state.unkept.splice(at, 1);
    keepSpare();
    return Promise.resolve();
  },
};

function onSent(item, body) {
  const { entry } = findEntry(item.round_id, item.entry);
  if (entry && body?.result && body.result.version >= entry.version) {
    entry.result = body.result;
    entry.version = body.result.version;
  }
}

async function send(item) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
  try {
    const response = await fetch(root.dataset.writeUrl, {
      method: "POST", cache: "no-store", signal: controller.signal,
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify(requestBody(item)),
    });
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return { status: response.status, body };
  } finally {
    clearTimeout(timer);
  }
}

// Lost connections in a row: the next try waits retryDelay(failures). A record's own server
// errors are its own back-off (retry_at), the next try comes when the earliest is due.
let failures = 0;
let retryTimer = null;

const flush = singleFlight(async () => {
  clearTimeout(retryTimer);
  retryTimer = null;
  if (state.revoked) return;
  await keepUnkept();
  const wasDown = state.networkDown;
  let outcome;
  try {
    outcome = await sendWaiting(sending, send, { onSent, onChange: reloadItems });
  } catch (error) {
    // The storage failed under the outbox (cleared, closed): read it again after a wait.
    state.app.storage = error?.name ?? "Error";
    outcome = { stopped: "storage", revoked: null, retryAt: null };
  }
  state.networkDown = outcome.stopped === "network";
  if (outcome.stopped === "revoked") state.revoked = outcome.revoked ?? {};
  if (wasDown && !state.networkDown) serverAnswered();
  await reloadItems();
  if (state.networkDown || state.unkept.length || outcome.stopped === "storage"
      || state.app.storage) {
    failures += 1;
    retryTimer = setTimeout(flush, retryDelay(failures));
  } else {
    failures = 0;
    if (outcome.retryAt !== null) {
      retryTimer = setTimeout(flush, Math.max(outcome.retryAt - Date.now(), 0));
    }
  }
});

/** Send now, without waiting out the backoff (the network is back, the page is shown). */
function flushNow() {
  failures = 0;
  return flush();
}

async function resolveWith(item, current, retry) {
  const { entry } = findEntry(item.round_id, item.entry);
  if (entry) {
    entry.result = current;
    entry.version = current?.version ?? 0;
  }
  if (retry) {
    await sending.put({ ...item, state: "waiting", current: null, error: null });
  } else {
    await sending.delete(item.client_id);
  }
  const items = await sending.all();
  await sending.putAll(rebase(items, entryKey(item.round_id, item.entry),
                             entry?.version ?? 0));
  await reloadItems();
  flush();
}

const keepTheirs = (item) => resolveWith(item, item.current, false);
const sendMineAgain = (item) => resolveWith(item, item.current, true);
const dismiss = (item) => resolveWith(item, findEntry(item.round_id, item.entry).entry?.result
                                            ?? null, false);

// ------------------------------------------------------------------ sheets (forms)
function stepper(name, label, value = 0) {
  const input = h("input", { type: "number", name, id: `sheet-${name}`, min: 0,
                             inputmode: "numeric", value });
  const step = (delta) => () => {
    input.value = String(Math.max(0, (Number(input.value) || 0) + delta));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  return h("div", { class: "stepper" },
    h("label", { for: `sheet-${name}` }, label),
    h("div", { class: "stepper-row" },
      h("button", { type: "button", class: "secondary", "aria-label": `${label} −`,
                    onclick: step(-1) }, "−"),
      input,
      h("button", { type: "button", class: "secondary", "aria-label": `${label} +`,
                    onclick: step(1) }, "+")));
}

const breakdown = (round) => round.missing_breakdown ?? ["contiguous", "found"];
const numberIn = (form, name) => Math.max(0, Number(form?.elements[name]?.value) || 0);

/** The count's fields: piles of 10 and loose pieces (the pieces left), or pieces placed. */
function countFields(round, size) {
  let mode = round.counting_record === "remaining" ? "piles" : "pieces";
  const box = h("div", { class: "count-fields" });
  const draw = () => {
    const toggle = h("button", { type: "button", class: "link", dataset: { toggle: "count-mode" },
                                 onclick: () => { mode = mode === "piles" ? "pieces" : "piles";
                                                  draw(); } },
      mode === "piles" ? L.count_placed_instead : L.count_piles_instead);
    if (mode === "piles") {
      const total = h("p", { class: "count-total", id: "count-total" });
      const update = () => {
        const form = box.closest("form");
        const remaining = numberIn(form, "piles") * 10 + numberIn(form, "loose");
        total.textContent = t("remaining_total", { remaining,
                                                  placed: Math.max(0, size - remaining) });
      };
      box.replaceChildren(stepper("piles", L.piles), stepper("loose", L.loose), total, toggle);
      box.oninput = update;
      if (box.closest("form")) update();
      else queueMicrotask(update);
    } else {
      box.oninput = null;
      box.replaceChildren(h("label", { for: "sheet-pieces" }, L.pieces_placed),
        h("input", { type: "number", name: "pieces", id: "sheet-pieces", min: 0, max: size,
                     inputmode: "numeric", required: true }), toggle);
    }
  };
  draw();
  return {
    element: box,
    // Piles and loose pieces default to 0; placed pieces must be typed in.
    valid: () => mode === "piles" || box.querySelector("input").reportValidity(),
    values: (form) => (mode === "piles"
      ? { remaining: numberIn(form, "piles") * 10 + numberIn(form, "loose") }
      : { pieces: numberIn(form, "pieces") }),
  };
}

function title(text, entry, puzzle) {
  return h("header", { class: "sheet-head" },
    h("h2", {}, text),
    h("p", {}, entry.name, puzzle ? ` · ${t("puzzle", { puzzle })}` : ""));
}

function showSheet(form) {
  sheet.replaceChildren(form);
  if (!sheet.open) sheet.showModal();
}

function closeSheet() {
  if (sheet.open) sheet.close();
  sheet.replaceChildren();
}

function sizeOf(round, puzzle) {
  return round.puzzle_sizes[(puzzle ?? 1) - 1];
}

function openVerify(round, entry, puzzle, seconds = null, recorded = null) {
  const { result } = effective(round, entry);
  const shown = seconds ?? (puzzle ? result?.puzzles?.[puzzle - 1]?.time : result?.time_seconds);
  const verify = h("button", { type: "submit", class: "big", dataset: { submit: "verify" },
                               disabled: true }, L.verify);
  const completeText = h("span", { id: "sheet-complete" });
  // With pieces missing the judge confirms that count, not a complete puzzle.
  const confirmCount = () => {
    const missing = numberIn(form, "missing");
    completeText.textContent = missing ? tn("complete_missing", missing) : L.complete;
    verify.disabled = !(form.elements.complete_and_correct.checked
                        && form.elements.competitor_confirmed.checked);
  };
  const wrong = round.wrong_piece_means_unfinished;
  const count = countFields(round, sizeOf(round, puzzle));
  const wrongBox = h("div", { class: "wrong-piece", hidden: true },
    h("p", { class: "muted" }, L.wrong_piece_help), count.element,
    h("button", { type: "button", class: "big", dataset: { submit: "wrong-piece" },
                  onclick: () => {
                    if (!count.valid()) return;
                    record(round, entry, "verify", puzzle, {
                      complete_and_correct: false, ...count.values(form) });
                    closeSheet();
                  } }, L.save_count));
  const form = h("form", { id: "sheet-form", class: "sheet-form", method: "dialog",
    // The hidden count of a wrong piece has its own button and check.
    novalidate: true,
    onsubmit: (event) => {
      event.preventDefault();
      record(round, entry, "verify", puzzle, {
        missing: numberIn(form, "missing"),
        missing_contiguous: numberIn(form, "missing_contiguous"),
        missing_found: numberIn(form, "missing_found"), complete_and_correct: true,
        competitor_confirmed: true });
      closeSheet();
    },
    // The judge confirms the count as recorded: changing it asks for the tick again.
    oninput: (event) => {
      if (event.target.type !== "number") return;
      form.elements.complete_and_correct.checked = false;
      confirmCount();
    },
    onchange: confirmCount },
    title(t("check_title", { entry: entry.number }), entry, puzzle),
    h("p", { class: "big-time", id: "sheet-time" }, shown === null || shown === undefined
      ? "" : time(shown)),
    h("p", { class: "muted" }, L.show_time),
    stepper("missing", L.missing, recorded?.missing ?? 0),
    // Only what the ruleset's penalty reads (rules/missing_pieces.py); a round kept from an
    // older server has no list and asks both, as before.
    breakdown(round).includes("contiguous")
      ? stepper("missing_contiguous", L.contiguous, recorded?.missing_contiguous ?? 0) : null,
    breakdown(round).includes("found")
      ? stepper("missing_found", L.found, recorded?.missing_found ?? 0) : null,
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "complete_and_correct" }),
      " ", completeText),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "competitor_confirmed" }),
      ` ${L.confirmed}`),
    h("div", { class: "actions" }, verify,
      h("button", { type: "button", class: "secondary", dataset: { submit: "later" },
                    onclick: closeSheet }, L.later)),
    h("div", { class: "actions" }, wrong
      ? h("button", { type: "button", class: "secondary", dataset: { submit: "show-wrong" },
                      onclick: () => { wrongBox.hidden = false; } }, L.wrong_piece)
      : h("button", { type: "button", class: "secondary", dataset: { submit: "not-complete" },
                      onclick: closeSheet }, L.not_complete)),
    wrongBox);
  confirmCount();
  showSheet(form);
}

function openCount(round, entry, puzzle) {
  const count = countFields(round, sizeOf(round, puzzle));
  const form = h("form", { id: "sheet-form", class: "sheet-form", method: "dialog",
    onsubmit: (event) => {
      event.preventDefault();
      record(round, entry, "count", puzzle, count.values(form));
      closeSheet();
    } },
    title(t("count_title", { entry: entry.number }), entry, puzzle),
    count.element,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "big", dataset: { submit: "count" } }, L.save_count),
      h("button", { type: "button", class: "secondary", onclick: closeSheet }, L.cancel)));
  showSheet(form);
}

function openDsq(round, entry) {
  const error = h("p", { class: "refusal", hidden: true }, L.reason_required);
  const form = h("form", { id: "sheet-form", class: "sheet-form", method: "dialog",
    onsubmit: (event) => {
      event.preventDefault();
      const note = form.elements.note.value.trim();
      if (!note) {
        error.hidden = false;
        return;
      }
      record(round, entry, "dsq", null, { note });
      closeSheet();
    } },
    title(t("dsq_title", { entry: entry.number }), entry, null),
    h("label", { for: "sheet-note" }, L.reason),
    h("textarea", { name: "note", id: "sheet-note", rows: 3, maxlength: 300 }),
    error,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "big danger", dataset: { submit: "dsq" } }, L.dsq),
      h("button", { type: "button", class: "secondary", onclick: closeSheet }, L.cancel)));
  showSheet(form);
}

// ------------------------------------------------------------------ server state
/** Take a fresh /device/me, keeping any result this phone already knows in a newer version
 * (an answer to its own write can overtake a read that started earlier). */
function adopt(fresh) {
  const known = new Map();
  for (const round of state.me.rounds) {
    for (const table of round.tables) {
      for (const entry of table.entries) known.set(entryKey(round.id, entry.number), entry);
    }
  }
  for (const round of fresh.rounds) {
    for (const table of round.tables) {
      for (const entry of table.entries) {
        const mine = known.get(entryKey(round.id, entry.number));
        if (mine && mine.version > entry.version) {
          entry.result = mine.result;
          entry.version = mine.version;
        }
      }
    }
  }
  state.me = fresh;
}

// The server answered since the page opened, and the last read failed (no network).
let answeredOnce = false;
let refreshFailed = false;
// Looks for a new release of the screen (judge-offline.js keepScreen), once there is one.
let lookForRelease = () => {};

/** The server answers (again): a page opened from the phone's copy may be an older release,
 * look for a new one now rather than at the next page load. */
function serverAnswered() {
  lookForRelease();
}

const refresh = singleFlight(async () => {
  try {
    const response = await fetch(root.dataset.meUrl, { headers: auth, cache: "no-store" });
    if (response.status === 401) {
      state.revoked = await response.json().catch(() => ({}));
    } else if (response.ok) {
      adopt(await response.json());
      keepRoundData();
      if (!answeredOnce || refreshFailed) serverAnswered();
      answeredOnce = true;
      refreshFailed = false;
    }
    render();
  } catch {
    // Offline: keep showing what we have; the clock runs on.
    refreshFailed = true;
  }
});

/** Keep the round's data and the clock's offset for a reload without the network. */
function keepRoundData() {
  state.app.roundData = roundData.save(state.me, clock.synced ? clock.offsetMs : kept.offsetMs);
}

function showRequestedTable() {
  const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
  if (target) {
    target.classList.add("requested");
    target.scrollIntoView({ block: "start" });
  }
}

/** The service worker's news: the screen kept on the phone, or why not; another release. */
function onWorker(event) {
  if (event.kind === "kept") {
    state.app.worker = "kept";
    state.app.workerError = null;
  } else if (event.kind === "not-kept") {
    state.app.worker = "not-kept";
    state.app.workerError = event.error;
  } else if (event.kind === "other-release") {
    // The phone keeps another release: a new one installs (this page came from the network),
    // or one just took over from this page's (opened from the copy): then load it, the
    // records wait in the outbox; not while the judge fills in a form.
    state.app.worker = "updating";
    if (event.changed) reloadWhenIdle();
  }
  renderApp();
}

// A new release took over from this page's: load it once no form is open and no record is in
// this page only (the stored ones survive a reload).
let reloadWanted = false;

function reloadWhenIdle() {
  reloadWanted = true;
  reloadIfIdle();
}

function reloadIfIdle() {
  if (!reloadWanted || inPageOnly()) return;
  if (sheet.open) {
    sheet.addEventListener("close", reloadIfIdle, { once: true });
    return;
  }
  reloadWanted = false;
  location.reload();
}

async function start() {
  // The storage closed under the page (cleared): read it again now, put back what it lost.
  outbox.onclose = flushNow;
  // Ask before leaving while a record is in this page only, or records wait and the phone has
  // no copy of the screen (reopening needs the network), whatever the connection.
  guardLeaving(() => inPageOnly()
    || (!screenKept() && state.items.length + state.unkept.length > 0));
  if (canKeepScreen()) {
    keepScreen({ url: root.dataset.workerUrl, scope: root.dataset.workerScope,
                 release: root.dataset.release, onEvent: onWorker })
      .then((lookAgain) => { lookForRelease = lookAgain; });
  }
  await outbox.putAll(serverFailuresWaiting(await outbox.all()));
  await reloadItems();
  showRequestedTable();
  clock.start().then(() => {
    keepRoundData();
    render();
  });
  setInterval(renderClock, 250);
  setInterval(refresh, REFRESH_MS);
  window.addEventListener("online", () => {
    state.networkDown = false;
    flushNow();
    refresh();
  });
  window.addEventListener("offline", render);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      flushNow();
      refresh();
    }
  });
  const feed = new LiveFeed(root.dataset.slug, {
    onChange: (notice) => {
      const shown = new Set(state.me.rounds.map((r) => r.id));
      if (notice.kind === "state" || shown.has(notice.round)) refresh();
    },
    onGap: refresh,
  });
  feed.start();
  flush();
}

start();
