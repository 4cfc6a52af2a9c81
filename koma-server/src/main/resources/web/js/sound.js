// Game sounds, synthesised with WebAudio (no sound files, nothing fetched): a move, a capture, a check, the end
// of a game and low time. Muted or not is remembered in localStorage ('koma.mute'). Every sound asked for is
// counted in window.__komaSounds (kind -> count, and the last kind), so the browser tests can see that a sound
// was triggered even where the machine has no audio output.

const KEY = 'koma.mute';

/** Each kind: a list of [frequency Hz, start s, length s, gain] tones. */
const TONES = {
  move: [[520, 0, 0.07, 0.25]],
  capture: [[330, 0, 0.06, 0.3], [220, 0.05, 0.09, 0.3]],
  check: [[880, 0, 0.08, 0.2], [660, 0.09, 0.1, 0.2]],
  end: [[523, 0, 0.15, 0.2], [659, 0.15, 0.15, 0.2], [784, 0.3, 0.3, 0.2]],
  lowTime: [[990, 0, 0.05, 0.15], [990, 0.12, 0.05, 0.15]],
};

let context = null;

window.__komaSounds = window.__komaSounds || { counts: {}, last: null };

export function muted() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function setMuted(on) {
  try {
    localStorage.setItem(KEY, on ? '1' : '0');
  } catch {
    // private mode: the switch holds for this page only
  }
}

/** Plays a sound of this kind unless muted; counts it either way in window.__komaSounds.asked. */
export function play(kind) {
  const tones = TONES[kind];
  if (!tones) return;
  const s = window.__komaSounds;
  s.asked = (s.asked || 0) + 1;
  if (muted()) return;
  s.counts[kind] = (s.counts[kind] || 0) + 1;
  s.last = kind;
  try {
    if (!context) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      context = new Ctx();
    }
    const now = context.currentTime;
    for (const [freq, start, length, gain] of tones) {
      const osc = context.createOscillator();
      const amp = context.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      amp.gain.setValueAtTime(0, now + start);
      amp.gain.linearRampToValueAtTime(gain, now + start + 0.01);
      amp.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      osc.connect(amp).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch {
    // a browser that refuses audio (autoplay rules) still plays the game
  }
}
