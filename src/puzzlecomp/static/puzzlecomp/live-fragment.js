// A screen made of one server-rendered fragment (an overlay, the hall projector's scene): the
// fragment is fetched again when a live notice touches what it shows, and its clock runs here.
// The hall projector (data-scenes) also follows the head judge's scene switches.

import { LiveFeed, ServerClock, singleFlight } from "./live.js";
import { drawClock } from "./results.js";

const root = document.querySelector("[data-live-fragment]");
const labels = JSON.parse(document.getElementById("screen-labels").textContent);
const serverClock = new ServerClock();

/** The round the fragment shows now ("" for none): a scene switch may change it. */
function followed() {
  return root.querySelector("[data-follow-round]")?.dataset.followRound ?? "";
}

function tick() {
  const box = root.querySelector("[data-clock-box]");
  const json = root.querySelector("[data-follow-round] script");
  if (box && json) drawClock(box, JSON.parse(json.textContent), serverClock, labels);
}

const refresh = singleFlight(async () => {
  try {
    const response = await fetch(root.dataset.url, { cache: "no-store" });
    if (!response.ok) return;
    root.innerHTML = await response.text();
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
serverClock.start();
feed.start();
tick();
setInterval(tick, 250);
