// Sound: a short tone when it becomes your turn and when a deal ends, made with the Web Audio
// API (no audio files). Off by default; the player's choice is remembered in localStorage. No
// AudioContext is made while the sound is off: the first is made by the click that turns it on
// (browsers let a page start audio only after a gesture).
import { t } from "./i18n.js";
import { h, store } from "./util.js";

const SOUND_KEY = "rummykit.sound";

/** The tones of each cue: [frequency in Hz, start in s]. */
const TUNES = {
  turn: [[660, 0], [880, 0.11]],
  end: [[784, 0], [659, 0.13], [523, 0.26]],
  on: [[880, 0]],
};
const NOTE_S = 0.16;
const VOLUME = 0.12;

let context = null;

/** Whether the player has turned the sound on. */
export const soundOn = () => store.get(SOUND_KEY, false) === true;

function audio() {
  if (!context) {
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended" && context.resume) context.resume().catch(() => {});
  return context;
}

/** Play the cue `kind` ("turn", "end", "on"), when the sound is on. */
export function playCue(kind) {
  if (!soundOn() || !TUNES[kind]) return;
  const ac = audio();
  if (!ac) return;
  const now = ac.currentTime;
  for (const [frequency, at] of TUNES[kind]) {
    const tone = ac.createOscillator();
    const gain = ac.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(VOLUME, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + NOTE_S);
    tone.connect(gain);
    gain.connect(ac.destination);
    tone.start(now + at);
    tone.stop(now + at + NOTE_S + 0.02);
  }
}

const yourTurn = (view) => view.seat !== null && view.seat !== undefined && view.turn === view.seat && view.phase !== "over";

/**
 * The cue a new view calls for, from the view before it (null on a page's first view, which
 * stays silent): "turn" when it has just become your turn, "end" when the deal has just
 * ended, else null.
 */
export function cueFor(old, view) {
  if (!old || !view) return null;
  if (view.phase === "over" && (old.phase !== "over" || old.deal !== view.deal)) return "end";
  if (yourTurn(view) && !(yourTurn(old) && old.deal === view.deal)) return "turn";
  return null;
}

/** The setting "Sound" (a checkbox, remembered); turning it on plays a short tone. */
export function soundSetting() {
  const input = h("input", { type: "checkbox", id: "sound", testid: "sound-setting", checked: soundOn() });
  input.addEventListener("change", () => {
    store.set(SOUND_KEY, input.checked);
    playCue("on");
  });
  return h("div", { class: "field check" }, input, h("label", { for: "sound" }, t("hand.sound")));
}
