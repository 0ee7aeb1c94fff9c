// The judges' service worker (scope /judge/): the screen opens without the network.
// Served by judging/offline_app.py, which puts JUDGE_APP ({release, scope, assets,
// releaseHeader}) in front of this code. One cache per release holds the screen's files and
// the screens this phone opened; it is filled whole before the worker takes over (an install
// that fails leaves the previous release in place) and the older caches go once it has: a
// phone never mixes two releases. The screen's HTML comes from the network while there is
// one (the device API keeps the round's data fresh), from the cache when there is none.

const { release: RELEASE, assets: ASSETS, releaseHeader: RELEASE_HEADER } = JUDGE_APP;
const PREFIX = "puzzlecomp-judge-";
const COPY_HEADER = "X-Puzzlecomp-Copy";
const CACHE = `${PREFIX}${RELEASE}`;
// A hall's Wi-Fi that is joined but leads nowhere: the phone's copy after this long.
const NETWORK_WAIT_MS = 4_000;
const SCREEN = /^\/judge\/[-\w]+\/$/;
const TABLE_CARD = /^\/judge\/([-\w]+)\/table\/(\d+)\/(\d+)$/;
const ASSET_PATHS = new Set(ASSETS.map((url) => new URL(url, self.location.origin).pathname));
// Pages opened from the network in another release than this worker's: their files come from
// the network too, never from this cache (not half old, half new).
const otherRelease = new Set();

/** Tell every judge's screen (also one not controlled yet) what happened to the phone's copy. */
async function tell(message) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) client.postMessage({ ...message, release: RELEASE });
}

const screenKey = (url) => `${url.origin}${url.pathname}`;

/** The screens to keep: those open now and those the caches of older releases kept. */
async function screensToKeep() {
  const urls = new Set();
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) {
    const url = new URL(client.url);
    if (SCREEN.test(url.pathname)) urls.add(screenKey(url));
  }
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX)) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (SCREEN.test(url.pathname)) urls.add(screenKey(url));
    }
  }
  return [...urls];
}

async function install() {
  const cache = await caches.open(CACHE);
  await cache.addAll(ASSETS.map((url) => new Request(url, { cache: "reload" })));
  for (const url of await screensToKeep()) {
    // A network error fails the install: the older release, whole, stays in charge.
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    // A revoked phone's or a newer server's screen is not kept.
    if (response.ok && response.headers.get(RELEASE_HEADER) === RELEASE) {
      await cache.put(url, response);
    }
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(install().then(() => self.skipWaiting()).catch(async (error) => {
    await caches.delete(CACHE);
    await tell({ kind: "not-kept", error: error?.name ?? "Error" });
    throw error;
  }));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
    await tell({ kind: "kept" });
  })());
});

self.addEventListener("message", (event) => {
  if (event.data?.kind !== "release") return;
  event.source?.postMessage({ kind: "release", release: RELEASE });
  // The phone's storage cleared under this worker took its cache: keep the screen again.
  event.waitUntil(caches.has(CACHE).then((there) => (there ? null
    : install().then(() => tell({ kind: "kept" })))).catch(async (error) => {
    await caches.delete(CACHE);
    await tell({ kind: "not-kept", error: error?.name ?? "Error" });
  }));
});

function withDeadline(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer")), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); },
                 (error) => { clearTimeout(timer); reject(error); });
  });
}

/** The screen: the network's while it answers (kept for later), else the phone's copy. */
async function screen(event, url) {
  try {
    const response = await withDeadline(fetch(event.request), NETWORK_WAIT_MS);
    // A proxy's gateway error while the server is away: the copy is better.
    if (response.status < 500) {
      const answered = response.headers.get(RELEASE_HEADER);
      if (response.ok && answered === RELEASE) {
        const copy = response.clone();
        event.waitUntil(caches.open(CACHE).then((cache) => cache.put(screenKey(url), copy))
          .catch((error) => tell({ kind: "not-kept", error: error?.name ?? "Error" })));
      } else if (answered && event.resultingClientId) {
        otherRelease.add(event.resultingClientId);
      } else if (response.status === 401 || response.status === 404) {
        // A revoked or replaced phone, a championship gone: its copy must not open offline.
        event.waitUntil(caches.open(CACHE).then((cache) => cache.delete(screenKey(url))));
      }
      return response;
    }
  } catch {
    // No network: the copy below.
  }
  const kept = await caches.match(screenKey(url), { cacheName: CACHE });
  return kept ? fromCopy(kept) : Response.error();
}

/** A kept response, marked as the phone's copy (what the judge opened without the network). */
function fromCopy(kept) {
  const headers = new Headers(kept.headers);
  headers.set(COPY_HEADER, RELEASE);
  return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
}

/** A table card's QR code without the network: the phone's copy of the screen at that table. */
async function tableCard(event, url, match) {
  try {
    return await withDeadline(fetch(event.request), NETWORK_WAIT_MS);
  } catch {
    const [, slug, round, table] = match;
    const home = new URL(`/judge/${slug}/`, url.origin);
    const kept = await caches.match(screenKey(home), { cacheName: CACHE });
    if (!kept) return Response.error();
    return Response.redirect(`${home.href}?round=${round}#table-${table}`, 303);
  }
}

/** The screen's files: this release's copy, unless the page belongs to another release. */
async function asset(event) {
  if (otherRelease.has(event.clientId)) {
    return fetch(new Request(event.request, { cache: "no-cache" }));
  }
  const kept = await caches.match(event.request, { cacheName: CACHE });
  return kept ?? fetch(event.request);
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (SCREEN.test(url.pathname)) event.respondWith(screen(event, url));
    const card = url.pathname.match(TABLE_CARD);
    if (card) event.respondWith(tableCard(event, url, card));
    return;
  }
  // The device API, the clock and the live feed go to the network untouched.
  if (ASSET_PATHS.has(url.pathname)) event.respondWith(asset(event));
});
