// The championship page's "live now": each clock runs here, and the part is fetched again when
// a live notice says something changed. The server renders the part (story.py), so a browser
// without JavaScript shows the state at the moment of the page.

import { LiveFeed, ServerClock, singleFlight } from "./live.js";
import { drawClock } from "./results.js";

// At most one fetch of the part every few seconds, however fast the results come in.
const PAUSE_MS = 2000;

const root = document.querySelector("[data-championship-live]");
if (root) {
  const labels = JSON.parse(document.getElementById("championship-labels").textContent);
  const part = root.querySelector("[data-live-part]");
  const status = root.querySelector("[data-live-status]");
  const serverClock = new ServerClock();

  const tick = () => {
    for (const clock of part.querySelectorAll("[data-live-clock]")) {
      const box = clock.querySelector("[data-clock-box]");
      const json = clock.querySelector('script[type="application/json"]');
      if (box && json) drawClock(box, JSON.parse(json.textContent), serverClock, labels);
    }
  };

  const refresh = singleFlight(async () => {
    try {
      const response = await fetch(root.dataset.url, { cache: "no-store" });
      if (response.ok) {
        part.innerHTML = await response.text();
        tick();
      }
    } catch (error) {
      // The next notice (or the feed coming back) fetches again.
      console.warn("championship: live part not fetched", error);
    }
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  });

  const feed = new LiveFeed(root.dataset.slug, {
    lastSeq: Number(root.dataset.seq),
    onChange: (notice) => {
      // The hall projectors' scene and the check-in desk change nothing shown here.
      if (notice.kind !== "scene" && notice.kind !== "check_in") refresh();
    },
    onGap: () => refresh(),
    onStatus: (state) => {
      status.hidden = state === "stopped";
      status.dataset.status = state;
      status.textContent = state === "live" ? labels.live : labels.reconnecting;
    },
  });
  serverClock.start();
  feed.start();
  tick();
  setInterval(tick, 250);
}
