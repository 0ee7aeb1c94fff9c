// Hall screens, projectors and stream overlays are live only with the network: while the
// browser has none, a mark says what they show may be out of date (as the public pages'
// banner does, site.js), never a stale page passed off as live (issue 31).
const mark = document.getElementById("offline-mark");
if (mark) {
  const showNetwork = () => {
    mark.hidden = navigator.onLine;
    document.body.classList.toggle("no-network", !navigator.onLine);
  };
  window.addEventListener("online", showNetwork);
  window.addEventListener("offline", showNetwork);
  showNetwork();
}
