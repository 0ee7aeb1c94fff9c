// Public results of a round, kept live: on each notice for the round the snapshot is fetched
// again (ETag: unchanged rounds cost a 304) and the rows are redrawn in place. The server
// renders the same rows for browsers without JavaScript (public/live/display.py); the cells
// drawn here must read exactly as those (tests/browser/test_live_results.py compares them).

import {
  LiveFeed,
  ServerClock,
  clockFace,
  fetchSnapshot,
  formatDuration,
  roundClock,
  singleFlight,
} from "./live.js";
import { flashFollowed, followedState, redrawKeepingFocus, refreshFollowing } from "./following.js";

const FLASH_MS = 4000;

/** The page's words (translated on the server) and the round clock it was rendered with. */
export function pageData() {
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  return { labels: read("results-labels"), clock: read("round-clock") };
}

/** Pieces per minute as Django prints them: two decimals, the page language's separator. */
export function numberFormat() {
  return new Intl.NumberFormat(document.documentElement.lang || undefined, {
    minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false,
  });
}

const seconds = (value) => (value === null || value === undefined ? "" : formatDuration(value * 1000));

/** A snapshot line's cells as printed (the twin of display.result_row). */
export function lineCells(line, labels, numbers) {
  const finished = line.status === "finished";
  const penalty = line.penalty_seconds || 0;
  const qualified = line.qualified;
  return {
    entry: line.entry,
    name: line.name || labels.withheld,
    flag: line.flag || "",
    flagEmoji: labels.flags[line.flag] || "",
    group: line.group || "",
    table: line.table ?? "",
    rank: line.rank ?? "",
    officialRank: line.official_rank ?? "",
    status: line.status,
    statusWords: labels.status[line.status] || "",
    time: finished ? seconds(line.time_seconds) : "",
    penalty: finished && penalty ? `+${seconds(penalty)}` : "",
    final: finished ? seconds(line.final_seconds) : "",
    pieces: line.status === "unfinished" ? (line.pieces ?? "") : "",
    piecesPerMinute: line.pieces_per_minute === null || line.pieces_per_minute === undefined
      ? "" : numbers.format(line.pieces_per_minute),
    awaitingCheck: finished && line.checked === false,
    withdrawn: Boolean(line.withdrawn),
    qualification: qualified ? {
      destination: qualified.to_group || labels.nextRound,
      reason: labels.reasons[qualified.reason] || qualified.reason,
      confirmed: Boolean(qualified.confirmed),
      clinched: line.certainty === "clinched",
    } : null,
    version: line.version,
    record: line.record || "",
    recordWords: (labels.records || {})[line.record] || "",
  };
}

/** An element with a class and text; every name goes through textContent, never HTML. */
export function el(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== "") node.textContent = String(text);
  return node;
}

export function cell(className, ...children) {
  const td = el("td", className);
  td.append(...children);
  return td;
}

export function flagCell(cells) {
  return cell("flag", el("span", "flag-emoji", cells.flagEmoji), el("span", "ioc", cells.flag));
}

export function awaitingBadge(cells, labels) {
  const badges = cells.awaitingCheck
    ? [" ", el("span", "badge awaiting", labels.awaitingCheck)] : [];
  // Withdrawn after the round began (the twin of _row.html): kept as history, struck through.
  if (cells.withdrawn) badges.push(" ", el("span", "badge withdrawn", labels.withdrawn));
  return badges;
}

/** The badge of a broken record ("WR", "NR"), its name as a title. */
export function recordBadge(cells) {
  if (!cells.record) return [];
  const badge = el("abbr", "badge record", cells.record);
  badge.title = cells.recordWords;
  return [" ", badge];
}

/** The final time, or the status (DSQ, DNS, DNF) with its words as a title. */
export function finalCell(cells, className = "num final") {
  if (!cells.statusWords) return cell(className, cells.final);
  const abbr = el("abbr", "", cells.status.toUpperCase());
  abbr.title = cells.statusWords;
  return cell(className, abbr);
}

/** The mark of a qualification not yet confirmed: clinched, or expected (the twin of
 * templates/public/live/_mark.html). */
function qualificationMark(q, labels, { expected = true } = {}) {
  if (!q.confirmed && q.clinched) {
    const mark = el("span", "clinched", `✓ ${labels.clinched}`);
    mark.title = labels.clinchedTitle;
    return [" ", mark];
  }
  if (expected && !q.confirmed) {
    const mark = el("span", "expected", `(${labels.expected})`);
    mark.title = labels.expectedTitle;
    return [" ", mark];
  }
  return [];
}

export function nextCell(cells, labels, { expected = true } = {}) {
  const q = cells.qualification;
  if (!q) return cell("next");
  const parts = [el("span", "to", q.destination), " ", el("span", "why", q.reason)];
  return cell("next", ...parts, ...qualificationMark(q, labels, { expected }));
}

export function rowOf(cells) {
  const tr = el("tr", [cells.qualification ? "qualified" : "", cells.withdrawn ? "withdrawn" : ""]
    .filter(Boolean).join(" "));
  tr.dataset.entry = cells.entry;
  tr.dataset.version = cells.version;
  tr.dataset.status = cells.status;
  return tr;
}

/** The figure that decides the place, shown alone on a phone: the status (DNF, DSQ...), the
 * final time, or the pieces counted. */
export function decidesCell(cells, labels) {
  if (cells.statusWords) return finalCell(cells, "num decides");
  if (cells.final) return cell("num decides", cells.final);
  if (cells.pieces === "") return cell("num decides");
  return cell("num decides", el("span", "unit", labels.columns.pieces), ` ${cells.pieces}`);
}

/** The rest of the line as terms and values, opened below the row on a phone. */
export function moreCell(cells, labels) {
  const words = labels.columns;
  const list = el("dl");
  const add = (term, ...value) => {
    if (value.length && value[0] !== "") {
      const dd = el("dd");
      dd.append(...value);
      list.append(el("dt", "", term), dd);
    }
  };
  const q = cells.qualification;
  add(words.table, cells.table);
  add(words.time, cells.time);
  add(words.penalty, cells.penalty);
  add(words.result, cells.statusWords);
  add(words.piecesPerMinute, cells.piecesPerMinute);
  if (q) add(words.nextRound, `${q.destination} ${q.reason}`, ...qualificationMark(q, labels));
  add(words.group, cells.group);
  const summary = el("summary");
  summary.append(el("span", "visually-hidden", labels.detailsOf.replace("%(name)s", cells.name)));
  const details = el("details");
  details.append(summary, list);
  return cell("more", details);
}

/** A results line of the round page (the twin of templates/public/live/_row.html). */
function resultsRow(cells, { labels, official, entrantUrl }) {
  const tr = rowOf(cells);
  const link = el("a", "", cells.name);
  link.href = `${entrantUrl}${cells.entry}/`;
  tr.append(cell("num rank", cells.rank));
  if (official) tr.append(cell("num official", cells.officialRank));
  tr.append(
    flagCell(cells),
    cell("name", link, ...awaitingBadge(cells, labels), ...recordBadge(cells)),
    cell("num seat", cells.table),
    cell("num time", cells.time),
    cell("num penalty", cells.penalty),
    finalCell(cells),
    cell("num pieces", cells.pieces),
    cell("num ppm", cells.piecesPerMinute),
    nextCell(cells, labels),
    decidesCell(cells, labels),
    moreCell(cells, labels),
  );
  return tr;
}

export function emptyRow(labels) {
  const td = el("td", "", labels.noResults);
  td.colSpan = 99;
  const tr = el("tr", "empty");
  tr.append(td);
  return tr;
}

/** The snapshot's lines by group: the round's groups first, in order; `only` for one. */
export function linesByGroup(data, only) {
  const groups = new Map(data.round.groups.map((group) => [group, []]));
  for (const line of data.lines) {
    const group = line.group || "";
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(line);
  }
  if (only) return new Map([[only, groups.get(only) || []]]);
  return groups;
}

export function groupHeading(labels, group) {
  return group ? labels.group.replace("%(group)s", group) : "";
}

/** The section of a group, made from the page's <template> when the group is new. */
export function groupSection(root, group, labels) {
  const container = root.querySelector("[data-groups]");
  for (const section of container.querySelectorAll("section[data-group]")) {
    if (section.dataset.group === group) return section;
  }
  const template = root.querySelector("template[data-group-template]");
  const section = template.content.firstElementChild.cloneNode(true);
  section.dataset.group = group;
  const heading = section.querySelector("h2, h3");
  if (group) heading.textContent = groupHeading(labels, group);
  else heading.remove();
  container.append(section);
  return section;
}

/** Mark rows whose result is new or changed since `versions` (entry -> version). */
export function flashChanged(rows, versions) {
  for (const tr of rows) {
    if (versions.get(tr.dataset.entry) === tr.dataset.version) continue;
    tr.classList.add("changed");
    setTimeout(() => tr.classList.remove("changed"), FLASH_MS);
  }
}

/** Redraw the round page's tables from a snapshot, flashing what changed; rows a reader has
 * opened stay open. */
function renderResults(root, data, labels, numbers) {
  const options = {
    labels,
    official: data.round.official_ranking,
    entrantUrl: root.dataset.entrantUrl,
  };
  const kept = new Set();
  for (const [group, lines] of linesByGroup(data, root.dataset.group)) {
    const section = groupSection(root, group, labels);
    const tbody = section.querySelector("tbody");
    const shown = [...tbody.querySelectorAll("tr[data-entry]")];
    const versions = new Map(shown.map((tr) => [tr.dataset.entry, tr.dataset.version]));
    const opened = new Set(shown.filter((tr) => tr.querySelector("details[open]"))
      .map((tr) => tr.dataset.entry));
    const rows = lines.map((line) => resultsRow(lineCells(line, labels, numbers), options));
    for (const tr of rows) {
      if (opened.has(tr.dataset.entry)) tr.querySelector("details").open = true;
    }
    tbody.replaceChildren(...(rows.length ? rows : [emptyRow(labels)]));
    flashChanged(rows, versions);
    kept.add(section);
  }
  for (const section of root.querySelectorAll("[data-groups] > section[data-group]")) {
    if (!kept.has(section)) section.remove();
  }
}

/** Draw the round clock (state, and what its face shows) in a _clock.html box. */
export function drawClock(box, clockJson, serverClock, labels) {
  const now = roundClock(clockJson, serverClock);
  const face = clockFace(now, clockJson, labels);
  const waits = now.shows === "waiting";
  const state = waits ? labels.waiting : labels.states[now.state] || now.state;
  const stateNode = box.querySelector("[data-state]");
  if (stateNode.textContent !== state) {
    stateNode.textContent = state;
    stateNode.className = `state state-${waits ? "waiting" : now.state}`;
  }
  box.dataset.shows = now.shows;
  box.querySelector("[data-clock-part]").hidden = !face.value;
  box.querySelector("[data-clock-label]").textContent = face.label;
  const clockNode = box.querySelector("[data-clock]");
  if (clockNode.textContent !== face.value) clockNode.textContent = face.value;
}

/** Follow a round: live notices, snapshot refetches, the running clock and the feed's state.
 *
 * `onData(data, previous)` runs with each new snapshot. With `fetchAtStart` the snapshot is
 * fetched at once (the projector pages through it); otherwise only when the round changes,
 * since the server rendered the page from the snapshot of `data-etag`.
 */
export function followRound(root, { labels, clock, onData, fetchAtStart = false }) {
  const roundId = Number(root.dataset.round);
  let current = fetchAtStart ? null : { etag: root.dataset.etag, data: null };
  let clockJson = clock;
  const serverClock = new ServerClock();
  const refresh = singleFlight(async () => {
    try {
      const result = await fetchSnapshot(root.dataset.snapshotUrl, current);
      if (!result.changed) return;
      const previous = current?.data ?? null;
      current = { etag: result.etag, data: result.data };
      // A page of one group follows that group's clock (groups sharing tables start apart).
      clockJson = result.data.group_clocks?.[root.dataset.group] ?? result.data.clock;
      onData(result.data, previous);
    } catch (error) {
      // The next notice (or the feed coming back) fetches again.
      console.warn("results: snapshot not fetched", error);
    }
  });
  const status = root.querySelector("[data-live-status]");
  const feed = new LiveFeed(root.dataset.slug, {
    lastSeq: Number(root.dataset.seq),
    onChange: (notice) => {
      // A projector scene switch changes no round (the hall's screens follow it, live-fragment.js).
      if (notice.kind === "scene") return;
      if (notice.round === roundId || notice.round === null) refresh();
    },
    onGap: () => refresh(),
    onStatus: (state) => {
      status.hidden = state === "stopped";
      status.dataset.status = state;
      status.textContent = state === "live" ? labels.live : labels.reconnecting;
    },
  });
  serverClock.start();
  // A final round (every archived one too) changes no more: no stream, no live mark.
  if (!("settled" in root.dataset)) feed.start();
  if (fetchAtStart) refresh();
  const box = root.querySelector("[data-clock-box]");
  const tick = () => drawClock(box, clockJson, serverClock, labels);
  tick();
  setInterval(tick, 250);
  return { refresh, feed, serverClock };
}

const root = document.querySelector("[data-live-results]");
if (root) {
  const { labels, clock } = pageData();
  const numbers = numberFormat();
  const charts = root.querySelector("[data-round-charts]");
  const redrawCharts = singleFlight(async () => {
    const response = await fetch(charts.dataset.url, { cache: "no-store" });
    if (response.ok) charts.innerHTML = await response.text();
  });
  followRound(root, {
    labels, clock, onData: (data) => {
      const followed = followedState();
      redrawKeepingFocus(() => {
        renderResults(root, data, labels, numbers);
        refreshFollowing();
      });
      flashFollowed(followed);
      // The charts are drawn on the server (round_charts.py): one drawing, with or without JS.
      if (charts) redrawCharts();
    },
  });
}
