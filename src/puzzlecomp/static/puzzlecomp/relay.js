// The relay's rotation signal: a beep made with WebAudio (no sound files) when the round's
// clock passes a signal time (czech-blind-and-relay.txt, 3.2: a signal every 8 minutes).

/** Three short tones; `context` is an AudioContext the user allowed by a click. */
export function beep(context) {
  const start = context.currentTime + 0.02;
  for (let i = 0; i < 3; i++) {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.type = "square";
    tone.frequency.value = 880;
    const at = start + i * 0.35;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.4, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
    tone.connect(gain).connect(context.destination);
    tone.start(at);
    tone.stop(at + 0.3);
  }
}

/** Watches the clock for signal times (seconds from the start) and fires each once. */
export class RotationSignals {
  constructor({ onSignal = () => {} } = {}) {
    this.onSignal = onSignal;
    this.signals = [];
    this.handled = null; // the last signal time dealt with; null until the first check
    this.audio = null;
    this.soundOn = false;
    this.fired = 0;
  }

  setSignals(signals) {
    this.signals = [...(signals || [])].sort((a, b) => a - b);
  }

  /** Call on every tick. Signals already past when the page opened stay silent; a signal
   * found more than a few seconds late (a sleeping laptop) is not sounded either. */
  check(elapsedMs, running) {
    const seconds = elapsedMs / 1000;
    const due = this.signals.filter((at) => at <= seconds);
    const last = due.length ? due[due.length - 1] : -1;
    if (this.handled === null || !running) {
      this.handled = last;
      return;
    }
    if (last > this.handled) {
      this.handled = last;
      if (seconds - last < 5) this.fire(last);
    }
  }

  fire(at) {
    this.fired += 1;
    if (this.soundOn && this.audio) beep(this.audio);
    this.onSignal(at);
  }

  /** Turn the sound on or off; the first turn-on creates the AudioContext (needs a click). */
  async toggleSound() {
    if (!this.audio) this.audio = new AudioContext();
    this.soundOn = !this.soundOn;
    if (this.soundOn) {
      await this.audio.resume();
      beep(this.audio); // a test tone, so the head judge hears that it works
    }
    return this.soundOn;
  }
}
