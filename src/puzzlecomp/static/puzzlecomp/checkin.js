// The check-in desk follows the other desks: a check-in or a replacement in this round, made on
// another tablet, reloads the list unless somebody is typing a search here.
import { LiveFeed } from "./live.js";

const desk = document.querySelector(".desk[data-slug]");
if (desk) {
  const round = Number(desk.dataset.round);
  const search = document.getElementById("desk-q");
  let stale = false;
  const refresh = () => {
    if (document.activeElement === search && search.value) {
      stale = true;
      return;
    }
    window.location.reload();
  };
  search?.addEventListener("blur", () => {
    if (stale) window.location.reload();
  });
  new LiveFeed(desk.dataset.slug, {
    lastSeq: Number(desk.dataset.seq),
    onChange: (notice) => {
      if (notice.round === round && ["check_in", "seating"].includes(notice.kind)) refresh();
    },
    onGap: refresh,
  }).start();
}
