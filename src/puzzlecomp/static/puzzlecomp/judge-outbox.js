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
  }

  _open() {
    if (this._db === null) {
      this._db = new Promise((resolve, reject) => {
        const request = indexedDB.open(this.name, 1);
        request.onupgradeneeded = () => {
          request.result.createObjectStore(STORE, { keyPath: "client_id" });
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    }
    return this._db;
  }

  async _run(mode, work) {
    const db = await this._open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
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
    return { ...fields, client_id: crypto.randomUUID(), order: this._last, state: "waiting" };
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
    return this._run("readwrite", (store) => store.delete(clientId));
  }
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
 * doubling up to 30 s, so a server coming back is not flooded and a phone never gives up. */
export function retryDelay(failures) {
  return Math.min(1_000 * 2 ** Math.max(failures - 1, 0), 30_000);
}

/** A refusal that needs the judge: 4xx with an answer from the application (JSON). */
function needsTheJudge(status, body) {
  return status >= 400 && status < 500 && ![408, 425, 429].includes(status) && body !== null;
}

/**
 * Send waiting records in order until none is left or the server is out of reach.
 *
 * `send(item)` returns {status, body} or throws on a network error (a refused connection, a
 * timeout). A record that the server refuses (409 conflict, another 4xx from the application)
 * stays in the outbox for the judge to resolve and holds back the later records of its entry,
 * never those of other entries. Anything else is the server's trouble, not the record's: a
 * server error (5xx) holds the record's entry back for this round of sending and the others go
 * on; two in a row, a network error, 408, 429 or an answer that is no JSON (a proxy's page)
 * stop this round. Such a record stays waiting and goes again by itself (`retryDelay`); it
 * never needs the judge. 401 stops everything (the pairing no longer works).
 * Returns {stopped: "network" | "revoked" | null, revoked: body | null}.
 */
export async function sendWaiting(outbox, send, { onSent = () => {}, onChange = () => {} } = {}) {
  const skipped = new Set();
  let serverErrorsInARow = 0;
  for (;;) {
    const items = await outbox.all();
    const held = new Set(items.filter((i) => i.state !== "waiting")
      .map((i) => entryKey(i.round_id, i.entry)));
    const next = items.find((i) => i.state === "waiting"
      && !held.has(entryKey(i.round_id, i.entry)) && !skipped.has(entryKey(i.round_id, i.entry)));
    if (!next) return { stopped: skipped.size ? "network" : null, revoked: null };
    let answer;
    try {
      answer = await send(next);
    } catch {
      return { stopped: "network", revoked: null };
    }
    const { status, body } = answer;
    serverErrorsInARow = status >= 500 ? serverErrorsInARow + 1 : 0;
    if (status === 200) {
      await outbox.delete(next.client_id);
      onSent(next, body);
    } else if (status === 401) {
      return { stopped: "revoked", revoked: body };
    } else if (status === 409) {
      await outbox.put({ ...next, state: "conflict", current: body?.current ?? null, error: body });
    } else if (status >= 500) {
      skipped.add(entryKey(next.round_id, next.entry));
      if (serverErrorsInARow >= 2) return { stopped: "network", revoked: null };
    } else if (needsTheJudge(status, body)) {
      await outbox.put({ ...next, state: "refused", error: body });
    } else {
      return { stopped: "network", revoked: null };
    }
    onChange();
  }
}

/** Records an older phone held for the judge after server errors: they wait again. */
export function serverFailuresWaiting(items) {
  return items.filter((i) => i.state === "refused" && i.error?.status >= 500)
    .map((i) => ({ ...i, state: "waiting", error: null, server_errors: 0 }));
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
