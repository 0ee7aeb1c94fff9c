// A screen made of one server-rendered fragment (an overlay, the hall projector's scene): the
// fragment is fetched again when a live notice touches what it shows, and its clock runs here.
// The hall projector (data-scenes) also follows the head judge's scene switches.

import { LiveFeed, ServerClock, singleFlight } from "./live.js";
import { drawClock } from "./results.js";

const root = document.querySelector("[data-live-fragment]");
const labels = JSON.parse(document.getElementById("screen-labels").textContent);
const serverClock = new ServerClock();
const PAGE_MS = 10_000;
let pageIndex = 0;

/** The round the fragment shows now ("" for none): a scene switch may change it. */
function followed() {
  return root.querySelector("[data-follow-round]")?.dataset.followRound ?? "";
}

function tick() {
  const box = root.querySelector("[data-clock-box]");
  const json = root.querySelector("[data-follow-round] script");
  if (!box || !json) return;
  const before = box.dataset.shows;
  drawClock(box, JSON.parse(json.textContent), serverClock, labels);
  if (before === "countdown" && box.dataset.shows !== "countdown") {
    // A limit passed on this screen: no group whose time is up is named at the tables, and
    // the fragment is fetched again so that the page reads as the server renders it now.
    root.querySelectorAll("[data-tables='playing']").forEach((line) => { line.hidden = true; });
    refresh();
  }
}

/** Show page `pageIndex` of a fragment that has several (a scene's groups of qualifiers). */
function showPage() {
  const pages = root.querySelectorAll(".scene-page");
  if (pages.length === 0) return;
  pageIndex %= pages.length;
  pages.forEach((page, index) => page.toggleAttribute("data-later", index !== pageIndex));
}

const refresh = singleFlight(async () => {
  try {
    const response = await fetch(root.dataset.url, { cache: "no-store" });
    if (!response.ok) return;
    root.innerHTML = await response.text();
    showPage();
    tick();
  } catch (error) {
    // The next notice (or the feed coming back) fetches again.
    console.warn("screen: fragment not fetched", error);
  }
});

const feed = new LiveFeed(root.dataset.slug, {
  lastSeq: Number(root.dataset.seq),
  onChange: (notice) => {
    if (notice.kind === "scene") {
      if ("scenes" in root.dataset) refresh();
    } else if (notice.round === null || String(notice.round) === followed()) {
      refresh();
    }
  },
  onGap: () => refresh(),
  onStatus: (state) => {
    root.dataset.live = state;
  },
});
/** The hall's 1920 x 1080 scene scaled to the projector's window, centred, nothing cut. */
function fitHall() {
  const scale = Math.min(window.innerWidth / 1920, window.innerHeight / 1080);
  const left = (window.innerWidth - 1920 * scale) / 2;
  const top = (window.innerHeight - 1080 * scale) / 2;
  root.style.transform = `translate(${left}px, ${top}px) scale(${scale})`;
}

if ("scenes" in root.dataset) {
  fitHall();
  window.addEventListener("resize", fitHall);
}
serverClock.start();
feed.start();
tick();
setInterval(tick, 250);
setInterval(() => {
  pageIndex += 1;
  showPage();
}, PAGE_MS);
