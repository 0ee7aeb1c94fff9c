// The judge's screen without the network (issue 31): the service worker that keeps the screen
// on the phone (judge-sw.js), the round's data and the clock's offset kept in the phone's
// storage for a reload without the network, records the storage lost put back, and on plain
// HTTP (no service worker there) a warning before the page is left while records wait.

/** Whether this page can have a service worker: HTTPS, localhost or 127.0.0.1. */
export function canKeepScreen() {
  return window.isSecureContext && "serviceWorker" in navigator;
}

/**
 * Register the judges' service worker and report what it says: `onEvent({kind, ...})` with
 * kind "kept" (this release of the screen is on the phone), "not-kept" (`error`: why not),
 * "other-release" (the worker in charge keeps another release; `changed`: it just took over,
 * so this page's scripts are not the phone's any more).
 */
export async function keepScreen({ url, scope, release, onEvent }) {
  const worker = navigator.serviceWorker;
  let changed = false;
  worker.addEventListener("message", (event) => {
    const message = event.data ?? {};
    if (message.kind === "release") {
      onEvent(message.release === release ? { kind: "kept" }
        : { kind: "other-release", changed });
    } else if ((message.kind === "kept" || message.kind === "not-kept")
               && message.release === release) {
      // What a worker of another release kept says nothing about this page's.
      onEvent(message);
    }
  });
  const ask = () => worker.controller?.postMessage({ kind: "release" });
  worker.addEventListener("controllerchange", () => {
    changed = true;
    ask();
  });
  const register = () => worker.register(url, { scope, updateViaCache: "none" });
  // Look for a new release now (back online, the server answered again), not at the next page
  // load: update() fetches the worker's script, which names the release; registering again
  // also brings the worker back after the phone's storage was cleared.
  const lookAgain = () => register().then((found) => found.update()).then(ask).catch(() => {});
  window.addEventListener("online", lookAgain);
  try {
    await register();
  } catch (error) {
    onEvent({ kind: "not-kept", error: error?.name ?? "Error" });
    return lookAgain;
  }
  ask();
  return lookAgain;
}

/** Records the outbox's storage (IndexedDB) refused, kept in the page's other storage
 * (localStorage, its own quota): they survive a reload while either storage takes them. */
export class SpareRecords {
  constructor(slug) {
    this.key = `puzzlecomp-judge-spare-${slug}`;
  }

  load() {
    try {
      const kept = JSON.parse(localStorage.getItem(this.key) ?? "[]");
      return Array.isArray(kept) ? kept : [];
    } catch {
      return [];
    }
  }

  /** Keep these records (none: forget them); returns null, or the name of the error. */
  save(items) {
    try {
      if (items.length) localStorage.setItem(this.key, JSON.stringify(items));
      else localStorage.removeItem(this.key);
      return null;
    } catch (error) {
      return error?.name ?? "Error";
    }
  }
}

/** The round's data (the device API's answer) and the clock's offset, kept per championship. */
export class RoundData {
  constructor(slug) {
    this.key = `puzzlecomp-judge-round-${slug}`;
  }

  /** What was kept: {me, offsetMs} (either may be null). */
  load() {
    try {
      const kept = JSON.parse(localStorage.getItem(this.key) ?? "null");
      return { me: kept?.me ?? null, offsetMs: kept?.offsetMs ?? null };
    } catch {
      return { me: null, offsetMs: null };
    }
  }

  /** Keep the data; returns null, or the name of the error that prevented it. */
  save(me, offsetMs) {
    try {
      localStorage.setItem(this.key, JSON.stringify({ me, offsetMs }));
      return null;
    } catch (error) {
      return error?.name ?? "Error";
    }
  }
}

/** The newer of two device API answers (by the server's time of each). */
export function newerMe(a, b) {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(b.server_now) > Date.parse(a.server_now) ? b : a;
}

/** The records the page knew that are gone from storage without the page removing them. */
export function lostRecords(known, stored, removed) {
  const there = new Set(stored.map((item) => item.client_id));
  return known.filter((item) => !there.has(item.client_id) && !removed.has(item.client_id));
}

/** The words for a storage error's name. */
export function storageReason(name, labels) {
  return name === "QuotaExceededError" ? labels.reason_quota : labels.reason_unavailable;
}

/** The words for why the service worker was refused: the storage, or the connection (a
 * certificate the phone does not trust is no storage trouble). */
export function workerReason(name, labels) {
  if (name === "SecurityError") return labels.reason_certificate;
  if (name === "TypeError" || name === "NetworkError" || name === "AbortError") {
    return labels.reason_refused;
  }
  return storageReason(name, labels);
}

/** Ask before a reload or leaving the page while `mustAsk()` is true: records held only in
 * the page, or waiting records and no copy of the screen on the phone (plain HTTP, a worker
 * refused, the storage cleared), where reopening needs the network. */
export function guardLeaving(mustAsk) {
  window.addEventListener("beforeunload", (event) => {
    if (!mustAsk()) return;
    event.preventDefault();
    // Older browsers show the dialog only when a value is set.
    event.returnValue = "";
  });
}
