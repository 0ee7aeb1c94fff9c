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
  // Back online: look for a new release at once, not at the next page load; registering
  // again also brings the worker back after the phone's storage was cleared.
  window.addEventListener("online", () => register().then(ask).catch(() => {}));
  let registration;
  try {
    registration = await register();
  } catch (error) {
    onEvent({ kind: "not-kept", error: error?.name ?? "Error" });
    return null;
  }
  ask();
  return registration;
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

/** On plain HTTP a reload needs the network: ask before leaving while `waiting()` is true. */
export function guardLeaving(waiting) {
  window.addEventListener("beforeunload", (event) => {
    if (!waiting()) return;
    event.preventDefault();
    // Older browsers show the dialog only when a value is set.
    event.returnValue = "";
  });
}
