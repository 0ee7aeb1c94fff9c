// The hall's projector: the round's results a page at a time (as many rows as fit the screen,
// a new page every 10 s), the newest results flashing and listed at the bottom, the clock large.

import {
  awaitingBadge,
  cell,
  el,
  emptyRow,
  finalCell,
  flagCell,
  flashChanged,
  followRound,
  groupHeading,
  lineCells,
  linesByGroup,
  nextCell,
  numberFormat,
  pageData,
  rowOf,
} from "./results.js";

const PAGE_MS = 10_000;
const LATEST_SHOWN = 3;

const screen = document.querySelector("[data-projector]");
const { labels, clock } = pageData();
const numbers = numberFormat();
const main = screen.querySelector("[data-groups]");
const template = screen.querySelector("template[data-group-template]");
const pager = screen.querySelector("[data-pager]");
const latest = screen.querySelector("[data-latest]");
const latestLines = screen.querySelector("[data-latest-lines]");

let data = null;
let pages = [];
let pageIndex = 0;
let rowsPerPage = 12;
// Versions of the rows the server drew: only what changes after that flashes.
let versions = new Map(
  [...main.querySelectorAll("tr[data-entry]")].map((tr) => [tr.dataset.entry, tr.dataset.version]));
let recent = [];

/** A line of the projector (the twin of templates/public/live/_projector_row.html). */
function projectorRow(cells, official) {
  const tr = rowOf(cells);
  tr.append(cell("num rank", cells.rank));
  if (official) tr.append(cell("num official", cells.officialRank));
  tr.append(
    flagCell(cells),
    cell("name", cells.name, ...awaitingBadge(cells, labels)),
    finalCell(cells),
    cell("num", cells.pieces),
    nextCell(cells, labels, { expected: false }),
  );
  return tr;
}

/** Each group's lines cut into pages of `rowsPerPage`; an empty group is one empty page. */
function paginate() {
  pages = [];
  for (const [group, lines] of linesByGroup(data, screen.dataset.group)) {
    if (!lines.length) pages.push({ group, lines: [] });
    for (let start = 0; start < lines.length; start += rowsPerPage) {
      pages.push({ group, lines: lines.slice(start, start + rowsPerPage) });
    }
  }
  pageIndex = Math.min(pageIndex, Math.max(0, pages.length - 1));
}

function drawPage() {
  const page = pages[pageIndex];
  if (!page) return;
  const section = template.content.firstElementChild.cloneNode(true);
  section.dataset.group = page.group;
  const heading = section.querySelector("h2");
  if (page.group && !screen.dataset.group) heading.textContent = groupHeading(labels, page.group);
  else heading.remove();
  const official = data.round.official_ranking;
  const rows = page.lines.map((line) => projectorRow(lineCells(line, labels, numbers), official));
  section.querySelector("tbody").replaceChildren(...(rows.length ? rows : [emptyRow(labels)]));
  main.replaceChildren(section);
  flashChanged(rows, versions);
  pager.textContent = pages.length > 1
    ? labels.page.replace("%(page)s", pageIndex + 1).replace("%(pages)s", pages.length) : "";
}

/** How many rows fit under the header: measured on a drawn row, so any screen works. */
function fitRows() {
  const probe = main.querySelector("tbody tr");
  if (!probe) return;
  const table = main.querySelector("table");
  const above = probe.getBoundingClientRect().top - main.getBoundingClientRect().top;
  const room = main.clientHeight - above;
  const fitting = Math.max(3, Math.floor(room / probe.getBoundingClientRect().height));
  if (fitting !== rowsPerPage && table) {
    rowsPerPage = fitting;
    paginate();
    drawPage();
  }
  // A pair's or a team's name on two lines makes its row taller: fewer rows a page until the
  // last one drawn fits the screen.
  const limit = main.getBoundingClientRect().bottom + 0.5;
  while (rowsPerPage > 3 && lastRowBottom() > limit) {
    rowsPerPage -= 1;
    paginate();
    drawPage();
  }
}

function lastRowBottom() {
  const rows = main.querySelectorAll("tbody tr");
  return rows.length ? rows[rows.length - 1].getBoundingClientRect().bottom : 0;
}

/** The newest results, newest first, for the ticker at the bottom. */
function noteLatest(previous) {
  if (previous === null) return;
  const before = new Map(previous.lines.map((line) => [line.entry, line.version]));
  const changed = data.lines.filter((line) => before.get(line.entry) !== line.version);
  for (const line of changed) {
    recent = [line.entry, ...recent.filter((entry) => entry !== line.entry)];
  }
  recent = recent.slice(0, LATEST_SHOWN);
  const byEntry = new Map(data.lines.map((line) => [line.entry, line]));
  const items = recent.filter((entry) => byEntry.has(entry)).map((entry) => {
    const cells = lineCells(byEntry.get(entry), labels, numbers);
    const result = cells.statusWords || cells.final || cells.pieces;
    const item = el("span", "latest-line");
    item.dataset.entry = entry;
    item.append(el("span", "flag-emoji", cells.flagEmoji), ` ${cells.name} `,
                el("strong", "", result), cells.rank === "" ? "" : ` (${cells.rank})`);
    return item;
  });
  latestLines.replaceChildren(...items);
  latest.hidden = items.length === 0;
}

function show(snapshot, previous) {
  data = snapshot;
  noteLatest(previous);
  paginate();
  drawPage();
  fitRows();
  versions = new Map(data.lines.map((line) => [String(line.entry), String(line.version)]));
}

followRound(screen, { labels, clock, onData: show, fetchAtStart: true });
setInterval(() => {
  if (pages.length < 2) return;
  pageIndex = (pageIndex + 1) % pages.length;
  drawPage();
}, PAGE_MS);
window.addEventListener("resize", () => {
  if (data !== null) fitRows();
});
