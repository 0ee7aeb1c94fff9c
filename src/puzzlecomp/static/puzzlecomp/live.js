// Live rounds in the browser: the server's clock, the numbered notice feed, ranking snapshots.
// A plain ES module shared by the public results, the projector, the judges' phones and the
// head judge's screens. The protocol is described in docs/live.md.

const now = () => Date.now();
const monotonic = () => performance.now();

/** The server's clock, measured NTP-style and redrawn locally between measurements. */
export class ServerClock {
  constructor({ url = "/live/time", samples = 5, resyncMs = 60_000 } = {}) {
    this.url = url;
    this.samples = samples;
    this.resyncMs = resyncMs;
    this.offsetMs = 0;
    this.rttMs = null;
    this.synced = false;
    this._timer = null;
    this._onOnline = () => this.sync();
    this._onVisible = () => {
      if (document.visibilityState === "visible") this.sync();
    };
  }

  /** One round trip: the server's time is taken to be read half way through it. */
  async _sample() {
    const sentWall = now();
    const sent = monotonic();
    const response = await fetch(this.url, { cache: "no-store" });
    if (!response.ok) throw new Error(`${this.url}: HTTP ${response.status}`);
    const body = await response.json();
    const rtt = monotonic() - sent;
    return { rtt, offset: body.now - (sentWall + rtt / 2) };
  }

  /** Measure the offset; the sample with the shortest round trip wins. A failed sync keeps
   * the last offset (the clock runs on through network drops) and resolves to false. */
  async sync() {
    let best = null;
    for (let i = 0; i < this.samples; i++) {
      try {
        const sample = await this._sample();
        if (best === null || sample.rtt < best.rtt) best = sample;
      } catch {
        break;
      }
    }
    if (best === null) return false;
    this.offsetMs = best.offset;
    this.rttMs = best.rtt;
    this.synced = true;
    return true;
  }

  /** The server's time now, in epoch milliseconds. */
  now() {
    return now() + this.offsetMs;
  }

  /** Sync now and every `resyncMs`, and again when the network or the page comes back. */
  start() {
    if (this._timer !== null) return this.sync();
    this._timer = setInterval(() => this.sync(), this.resyncMs);
    window.addEventListener("online", this._onOnline);
    document.addEventListener("visibilitychange", this._onVisible);
    return this.sync();
  }

  stop() {
    if (this._timer !== null) clearInterval(this._timer);
    this._timer = null;
    window.removeEventListener("online", this._onOnline);
    document.removeEventListener("visibilitychange", this._onVisible);
  }
}

/** Where a round's clock stands now, from a snapshot's or the API's `clock` object.
 * `creditSeconds` extends the limit for one entry (time credit for a wrong puzzle).
 * `shows` is what the clock face shows (rules/round_life.py `group_clock_at` decided it;
 * only the limit passing on this screen moves a countdown to counting): "waiting" (the
 * limit), "countdown" (the time left), "counting" or "ended" (when assembly ended,
 * `endedAtMs`; never a countdown after the stop). */
export function roundClock(clockJson, serverClock, { creditSeconds = 0 } = {}) {
  const limitMs = (clockJson.limit_seconds + creditSeconds) * 1000;
  const given = clockJson.shows ?? (clockJson.started_at ? "countdown" : "waiting");
  const endedAtMs = clockJson.ended_at ? Date.parse(clockJson.ended_at) : null;
  if (!clockJson.started_at) {
    return { elapsedMs: 0, remainingMs: limitMs, state: clockJson.state, shows: given,
             endedAtMs };
  }
  const started = Date.parse(clockJson.started_at);
  const at = serverClock ? serverClock.now() : Date.parse(clockJson.server_now);
  const elapsedMs = Math.max(0, at - started);
  if (given === "waiting") {
    // Between groups: the next group waits; its limit, not the last group's 00:00.
    return { elapsedMs, remainingMs: limitMs, state: clockJson.state, shows: given, endedAtMs };
  }
  const remainingMs = given === "countdown" ? Math.max(0, limitMs - elapsedMs) : 0;
  if (given === "countdown" && remainingMs === 0 && clockJson.after_limit === "waiting") {
    // The last group started reached its limit while others wait their turn: the round
    // runs on and shows the next group's wait (round_life.round_clock_of_groups).
    return { elapsedMs, remainingMs: limitMs, state: clockJson.state, shows: "waiting",
             endedAtMs: null };
  }
  // The server moves a running round to counting at the limit; screens do not wait for it.
  const atLimit = clockJson.state === "running" && remainingMs === 0;
  const state = atLimit ? "counting" : clockJson.state;
  const shows = given === "countdown" && remainingMs === 0 ? "counting" : given;
  return { elapsedMs, remainingMs, state, shows,
           endedAtMs: endedAtMs ?? (shows === "countdown" ? null : started + limitMs) };
}

/** The words a clock face shows now: `label` and `value` ("Time left" "12:03", "Time limit"
 * "1:30:00", "Ended at" "11:31"); `words` carries timeLeft, timeLimit, endedAt and the
 * server's timeZone (display.py `clock_words` gives them). */
export function clockFace(now, clockJson, words) {
  if (now.shows === "countdown") {
    return { label: words.timeLeft, value: formatDuration(now.remainingMs, { roundUp: true }) };
  }
  if (now.shows === "waiting") {
    const value = clockJson.limit_seconds === null ? "--:--" : formatDuration(now.remainingMs);
    return { label: words.timeLimit, value };
  }
  if (now.endedAtMs === null) return { label: "", value: "" };
  // 24-hour "11:31" in the server's time zone, as the server writes it (H:i).
  const value = new Date(now.endedAtMs).toLocaleTimeString("en-GB", {
    hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: words.timeZone || undefined });
  return { label: words.endedAt, value };
}

/** "1:02:03" from an hour up, "02:03" below; `roundUp` for countdowns (00:01 until it is over). */
export function formatDuration(ms, { roundUp = false } = {}) {
  const total = Math.max(0, roundUp ? Math.ceil(ms / 1000) : Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}

/** The numbered notices of one championship over server-sent events.
 *
 * `onChange(notice)` for each new notice in order; `onGap()` instead when a number was missed or
 * the stream came back behind the server (then refetch what is shown). `lastSeq` may be the
 * number the page was rendered at, so that a change in between is not missed.
 */
export class LiveFeed {
  constructor(slug, { onChange = () => {}, onGap = () => {}, onStatus = () => {},
                      lastSeq = null, url = null, silenceMs = 45_000 } = {}) {
    this.slug = slug;
    this.url = url ?? `/live/${encodeURIComponent(slug)}/events`;
    this.onChange = onChange;
    this.onGap = onGap;
    this.onStatus = onStatus;
    this.lastSeq = lastSeq;
    this.silenceMs = silenceMs;
    this.status = "stopped";
    this._source = null;
    this._retry = null;
    this._watchdog = null;
  }

  start() {
    if (this._source !== null) return;
    this._setStatus("connecting");
    const source = new EventSource(this.url);
    this._source = source;
    source.addEventListener("hello", (event) => {
      this._alive();
      this._setStatus("live");
      const seq = JSON.parse(event.data).seq;
      if (this.lastSeq !== null && seq !== this.lastSeq) {
        this.lastSeq = seq;
        this.onGap();
      } else {
        this.lastSeq = seq;
      }
    });
    source.addEventListener("notice", (event) => {
      this._alive();
      this._notice(JSON.parse(event.data));
    });
    // The server pings every 15 s; silence means a dead connection the browser has not noticed.
    source.addEventListener("ping", () => this._alive());
    source.addEventListener("error", () => {
      this._setStatus("reconnecting");
      // EventSource retries by itself unless the server refused the stream (closed state).
      if (source.readyState === EventSource.CLOSED) this._reopen(5_000);
    });
  }

  stop() {
    if (this._source !== null) this._source.close();
    this._source = null;
    clearTimeout(this._retry);
    clearTimeout(this._watchdog);
    this._setStatus("stopped");
  }

  _notice(notice) {
    const seq = notice.seq;
    if (this.lastSeq !== null && seq <= this.lastSeq) return; // already seen
    const missed = this.lastSeq !== null && seq > this.lastSeq + 1;
    this.lastSeq = seq;
    if (missed) this.onGap();
    else this.onChange(notice);
  }

  _alive() {
    clearTimeout(this._watchdog);
    this._watchdog = setTimeout(() => this._reopen(0), this.silenceMs);
  }

  _reopen(delayMs) {
    if (this._source !== null) this._source.close();
    this._source = null;
    clearTimeout(this._watchdog);
    clearTimeout(this._retry);
    this._setStatus("reconnecting");
    this._retry = setTimeout(() => this.start(), delayMs);
  }

  _setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status);
  }
}

/** The live snapshot address of a round (the same JSON as the API's ranking). */
export function snapshotUrl(slug, roundId) {
  return `/live/${encodeURIComponent(slug)}/rounds/${roundId}/snapshot`;
}

/** Fetch a snapshot unless unchanged since `previous` ({etag, data}); throws on HTTP errors. */
export async function fetchSnapshot(url, previous = null) {
  const headers = previous?.etag ? { "If-None-Match": previous.etag } : {};
  const response = await fetch(url, { headers, cache: "no-store" });
  if (response.status === 304 && previous) {
    return { changed: false, etag: previous.etag, data: previous.data };
  }
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return { changed: true, etag: response.headers.get("ETag"), data: await response.json() };
}

/** Wrap an async refresh so that calls during a run fold into one more run after it. */
export function singleFlight(refresh) {
  let running = null;
  let again = false;
  const run = async () => {
    try {
      do {
        again = false;
        await refresh();
      } while (again);
    } finally {
      running = null;
    }
  };
  return () => {
    if (running !== null) again = true;
    else running = run();
    return running;
  };
}
