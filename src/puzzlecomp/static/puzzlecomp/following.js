// Entrants a spectator follows, kept in this browser only (localStorage, no account): a star
// button on each results row and on the entrant page; the followed rows are pinned in a
// "Following" block at the top of the page and flash when a live update shows them finishing
// or qualifying. Without JavaScript (or storage) the pages simply have no stars.

const STORE = "puzzlecomp.following";
const FLASH_MS = 8000;

/** The keys ("<championship>/<event>/<number>") followed in this browser. */
export function followedKeys() {
  try {
    const stored = JSON.parse(localStorage.getItem(STORE) || "[]");
    return new Set(Array.isArray(stored) ? stored.map(String) : []);
  } catch {
    return new Set();
  }
}

function keep(keys) {
  try {
    localStorage.setItem(STORE, JSON.stringify([...keys]));
  } catch {
    // Storage full or refused (private browsing): following lasts until the page is left.
  }
}

function words() {
  const node = document.getElementById("following-labels");
  return node ? JSON.parse(node.textContent) : null;
}

const keyOf = (scope, entry) => `${scope}/${entry}`;

/** The rows a spectator can follow: results lines of a scope, the pinned copies left out. */
function rowsOf(scope) {
  return [...scope.querySelectorAll("tbody tr[data-entry]")]
    .filter((tr) => !tr.closest("[data-following]"));
}

function nameOf(tr) {
  const name = tr.querySelector("td.name a") || tr.querySelector("td.name");
  return (name?.textContent || "").trim();
}

function starButton(key, label) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "star";
  button.dataset.follow = key;
  if (label) button.setAttribute("aria-label", label);
  // The star itself is drawn by the stylesheet, out of the button's name.
  const glyph = document.createElement("span");
  glyph.className = "star-glyph";
  glyph.setAttribute("aria-hidden", "true");
  button.append(glyph);
  return button;
}

/** Give each row of the scope its star (rows redrawn by results.js come without one). */
function addStars(scope, labels) {
  for (const tr of rowsOf(scope)) {
    const name = tr.querySelector("td.name");
    if (!name || name.querySelector("button.star")) continue;
    const key = keyOf(scope.dataset.followScope, tr.dataset.entry);
    name.prepend(starButton(key, labels.follow.replace("%(name)s", nameOf(tr))));
  }
}

function markStars(keys) {
  for (const button of document.querySelectorAll("button.star[data-follow]")) {
    button.setAttribute("aria-pressed", String(keys.has(button.dataset.follow)));
  }
}

/** The "Following" block: copies of the followed rows, each under its scope's table head. */
function pin(keys) {
  for (const block of document.querySelectorAll("[data-following]")) {
    const scope = document.querySelector(`[data-follow-scope="${CSS.escape(block.dataset.following)}"]`);
    const holder = block.querySelector("[data-following-rows]");
    if (!scope || !holder) continue;
    const rows = rowsOf(scope).filter((tr) => keys.has(keyOf(scope.dataset.followScope, tr.dataset.entry)));
    const source = [...scope.querySelectorAll("table")].find((t) => !t.closest("[data-following]"));
    block.hidden = rows.length === 0;
    if (!source || rows.length === 0) {
      holder.replaceChildren();
      continue;
    }
    // Rows the reader opened in the block stay open when it is drawn again.
    const opened = new Set([...holder.querySelectorAll("tr[data-entry]:has(details[open])")]
      .map((tr) => tr.dataset.entry));
    const table = source.cloneNode(false);
    table.removeAttribute("id");
    const head = source.querySelector("thead");
    const body = document.createElement("tbody");
    body.append(...rows.map((tr) => {
      const copy = tr.cloneNode(true);
      copy.classList.remove("changed");
      const details = copy.querySelector("details");
      if (details && opened.has(tr.dataset.entry)) details.open = true;
      return copy;
    }));
    if (head) table.append(head.cloneNode(true));
    table.append(body);
    holder.replaceChildren(table);
  }
}

/** Follow or stop following; every page of this browser (other tabs too) shows it. */
function toggle(button) {
  const key = button.dataset.follow;
  const keys = followedKeys();
  if (keys.has(key)) keys.delete(key);
  else keys.add(key);
  keep(keys);
  redrawKeepingFocus(refreshFollowing);
}

/** Run `redraw` (which may replace rows) and give the focus back to the same control of the
 * same entrant's row, in the pinned block or the tables as before (or the tables' row when
 * the pinned copy is gone), so that a keyboard reader keeps their place. */
export function redrawKeepingFocus(redraw) {
  const active = document.activeElement;
  const row = active?.closest?.("tr[data-entry]");
  const part = ["button.star", "summary", "td.name a"].find((selector) => active?.matches?.(selector));
  const pinned = Boolean(active?.closest?.("[data-following]"));
  redraw();
  if (!row || !part || document.contains(active)) return;
  const rows = [...document.querySelectorAll(`tr[data-entry="${CSS.escape(row.dataset.entry)}"]`)];
  const same = rows.find((tr) => Boolean(tr.closest("[data-following]")) === pinned)
    || rows.find((tr) => !tr.closest("[data-following]"));
  same?.querySelector(part)?.focus();
}

/** Stars on every row, their state, and the pinned block: after loading and after a redraw. */
export function refreshFollowing() {
  const labels = words();
  if (!labels) return;
  for (const scope of document.querySelectorAll("[data-follow-scope]")) {
    if (scope.dataset.entry) continue;
    addStars(scope, labels);
  }
  const keys = followedKeys();
  markStars(keys);
  pin(keys);
}

/** What the followed rows show now (finished, qualified), to tell what a redraw changed. */
export function followedState() {
  const keys = followedKeys();
  const state = new Map();
  for (const scope of document.querySelectorAll("[data-follow-scope]")) {
    for (const tr of rowsOf(scope)) {
      const key = keyOf(scope.dataset.followScope, tr.dataset.entry);
      if (keys.has(key)) {
        state.set(key, { finished: tr.dataset.status === "finished", qualified: tr.classList.contains("qualified") });
      }
    }
  }
  return state;
}

/** Flash the followed rows that finished or qualified since `before` (followedState), and say
 * so to screen readers. */
export function flashFollowed(before) {
  const labels = words();
  if (!labels) return;
  const keys = followedKeys();
  const news = [];
  for (const scope of document.querySelectorAll("[data-follow-scope]")) {
    for (const tr of rowsOf(scope)) {
      const key = keyOf(scope.dataset.followScope, tr.dataset.entry);
      if (!keys.has(key)) continue;
      const was = before.get(key) || { finished: false, qualified: false };
      const finished = !was.finished && tr.dataset.status === "finished";
      const qualified = !was.qualified && tr.classList.contains("qualified");
      if (!finished && !qualified) continue;
      if (finished) news.push(labels.finished.replace("%(name)s", nameOf(tr)));
      if (qualified) news.push(labels.qualified.replace("%(name)s", nameOf(tr)));
      const pinned = document.querySelectorAll(`[data-following] tr[data-entry="${CSS.escape(tr.dataset.entry)}"]`);
      for (const row of [tr, ...pinned]) {
        row.classList.add("follow-flash");
        setTimeout(() => row.classList.remove("follow-flash"), FLASH_MS);
      }
    }
  }
  const said = document.querySelector("[data-following-news]");
  if (said && news.length) said.textContent = news.join(" ");
}

/** The entrant page's button: "Follow" with a star, pressed while followed. */
function entrantButtons(labels) {
  for (const holder of document.querySelectorAll("[data-follow-scope][data-entry]")) {
    if (holder.querySelector("button.star")) continue;
    const button = starButton(keyOf(holder.dataset.followScope, holder.dataset.entry), "");
    button.classList.add("star-text");
    button.append(labels.followShort);
    holder.append(button);
    holder.hidden = false;
  }
}

const labels = words();
if (labels) {
  entrantButtons(labels);
  refreshFollowing();
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("button.star[data-follow]");
    if (button) toggle(button);
  });
  // Another tab followed someone: show it here too.
  window.addEventListener("storage", (event) => {
    if (event.key === STORE) refreshFollowing();
  });
}
