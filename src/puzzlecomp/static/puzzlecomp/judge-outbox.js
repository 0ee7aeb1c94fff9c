// The judge's outbox: every record is kept in IndexedDB before it is sent, so a dropped network,
// a closed tab or a reload loses nothing. Items are sent in the order they were made, each with
// the id the phone gave it (the server's idempotency key): sending one twice stores it once.

const STORE = "items";

/** One IndexedDB database per championship, holding the records not yet acknowledged. */
export class Outbox {
  constructor(name) {
    this.name = name;
    this._db = null;
    this._last = 0;
    // The records this page removed (sent, or dismissed by the judge): any other record that
    // disappears was lost with the phone's storage (judge-offline.js lostRecords).
    this.removed = new Set();
    // Called when the storage closed the connection under the page (cleared by the user).
    this.onclose = () => {};
  }

  _open() {
    if (this._db === null) {
      this._db = new Promise((resolve, reject) => {
        const request = indexedDB.open(this.name, 1);
        request.onupgradeneeded = () => {
          request.result.createObjectStore(STORE, { keyPath: "client_id" });
        };
        request.onsuccess = () => {
          const db = request.result;
          // The storage cleared under the page closes the connection: open it again next time.
          db.onclose = () => {
            this._db = null;
            this.onclose();
          };
          db.onversionchange = () => { db.close(); this._db = null; };
          resolve(db);
        };
        request.onerror = () => {
          this._db = null;
          reject(request.error);
        };
      });
    }
    return this._db;
  }

  async _run(mode, work) {
    const db = await this._open();
    return new Promise((resolve, reject) => {
      let tx;
      try {
        tx = db.transaction(STORE, mode);
      } catch (error) {
        // A connection closed under the page (its storage cleared): open a new one next time.
        this._db = null;
        reject(error);
        return;
      }
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }

  /** A new record: a fresh client id and a place after every record made before it. */
  make(fields) {
    // Strictly increasing even for two taps in the same millisecond.
    this._last = Math.max(Date.now(), this._last + 1);
    return { ...fields, client_id: newClientId(), order: this._last, state: "waiting" };
  }

  /** Every record, oldest first. */
  async all() {
    const items = await this._run("readonly", (store) => store.getAll());
    return items.sort((a, b) => a.order - b.order);
  }

  put(item) {
    return this._run("readwrite", (store) => store.put(item));
  }

  putAll(items) {
    return this._run("readwrite", (store) => {
      for (const item of items) store.put(item);
      return null;
    });
  }

  delete(clientId) {
    this.removed.add(clientId);
    return this._run("readwrite", (store) => store.delete(clientId));
  }
}

/** A random (version 4) UUID. crypto.randomUUID exists only in a secure context; a venue on
 * plain HTTP reached by its LAN address is none, crypto.getRandomValues works everywhere. */
export function newClientId() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What is sent for a record: the device API's body. */
export function requestBody(item) {
  return {
    client_id: item.client_id,
    round_id: item.round_id,
    entry: item.entry,
    base_version: item.base_version,
    action: item.action,
    puzzle: item.puzzle ?? null,
    values: item.values,
  };
}

/** The records of one entry in one round share a key: they are sent in order, one at a time. */
export function entryKey(roundId, entry) {
  return `${roundId}:${entry}`;
}

/** The wait before sending again after the server failed `failures` times in a row: 1 s,
 * doubling up to 15 s, so a server coming back is not flooded, a phone never gives up and a
 * record reaches the server soon after it comes back. */
export function retryDelay(failures) {
  return Math.min(1_000 * 2 ** Math.max(failures - 1, 0), 15_000);
}

/** Answers that say the server is out of reach as a whole (a proxy's gateway errors, the
 * server's "unavailable"), not that one record failed: the whole outbox waits. */
const UNREACHABLE = [408, 429, 502, 503, 504];

/** A refusal that needs the judge: 4xx with an answer from the application (JSON). */
function needsTheJudge(status, body) {
  return status >= 400 && status < 500 && ![408, 425, 429].includes(status) && body !== null;
}

/** The earliest time after `now` a waiting record in its own back-off may go again, or null. */
function nextRetryAt(items, now) {
  const times = items.filter((i) => i.state === "waiting" && i.retry_at > now)
    .map((i) => i.retry_at);
  return times.length ? Math.min(...times) : null;
}

/**
 * Send waiting records in order until none is left or the server is out of reach.
 *
 * `send(item)` returns {status, body} or throws on a network error (a refused connection, a
 * timeout). A record that the server refuses (409 conflict, another 4xx from the application)
 * stays in the outbox for the judge to resolve and holds back the later records of its entry,
 * never those of other entries. A server error (500) on one record is that record's trouble,
 * not the outbox's: the record stays waiting and backs off by itself (`retryDelay` of its own
 * errors, kept in `retry_at`), its entry waits, and the other entries go on. Only a network
 * error, 408, 429, 502-504 or a 4xx that is no JSON (a proxy's page) stop everything: the
 * server is out of reach. Once a record went through, records backing off go again at once in
 * the same round (the server is back), each at most once and without lengthening their wait. 401 stops everything (the pairing
 * no longer works). Never "refused" for a server error: it never needs the judge.
 * Returns {stopped: "network" | "revoked" | null, revoked: body | null, retryAt: ms | null}.
 */
export async function sendWaiting(outbox, send,
  { onSent = () => {}, onChange = () => {}, now = () => Date.now() } = {}) {
  const skipped = new Set();
  let answered = false;
  for (;;) {
    const items = await outbox.all();
    // An entry waits behind a record for the judge, and behind its record backing off (the
    // later records build on it), until that record is due or a try went through.
    const held = new Set(items.filter((i) => i.state !== "waiting"
      || (!answered && i.retry_at > now())).map((i) => entryKey(i.round_id, i.entry)));
    const next = items.find((i) => i.state === "waiting"
      && !held.has(entryKey(i.round_id, i.entry)) && !skipped.has(entryKey(i.round_id, i.entry)));
    if (!next) return { stopped: null, revoked: null, retryAt: nextRetryAt(items, now()) };
    let answer;
    try {
      answer = await send(next);
    } catch {
      return { stopped: "network", revoked: null, retryAt: null };
    }
    const { status, body } = answer;
    if (status === 200) {
      answered = true;
      await outbox.delete(next.client_id);
      onSent(next, body);
    } else if (status === 401) {
      return { stopped: "revoked", revoked: body, retryAt: null };
    } else if (status === 409) {
      await outbox.put({ ...next, state: "conflict", current: body?.current ?? null, error: body,
        retry_at: null });
    } else if (status >= 500 && !UNREACHABLE.includes(status)) {
      // A try before its time (another record went through) does not lengthen the back-off.
      const early = next.retry_at > now();
      const errors = Math.max((next.server_errors ?? 0) + (early ? 0 : 1), 1);
      skipped.add(entryKey(next.round_id, next.entry));
      await outbox.put({ ...next, server_errors: errors, retry_at: now() + retryDelay(errors) });
    } else if (needsTheJudge(status, body)) {
      await outbox.put({ ...next, state: "refused", error: body, retry_at: null });
    } else {
      return { stopped: "network", revoked: null, retryAt: null };
    }
    onChange();
  }
}

/** Records an older phone held for the judge after server errors: they wait again. */
export function serverFailuresWaiting(items) {
  return items.filter((i) => i.state === "refused" && i.error?.status >= 500)
    .map((i) => ({ ...i, state: "waiting", error: null, server_errors: 0, retry_at: null }));
}

/** Give the waiting records of an entry consecutive base versions from `version` on. */
export function rebase(items, key, version) {
  let base = version;
  const changed = [];
  for (const item of items) {
    if (entryKey(item.round_id, item.entry) !== key || item.state === "refused") continue;
    if (item.base_version !== base) changed.push({ ...item, base_version: base });
    base += 1;
  }
  return changed;
}
