// The turn timer: a countdown from the server's deadline, for the player whose turn it is.
// The server alone decides when the time has run out; the page only shows what is left,
// measured on the server's clock: each view brings the server's time (server_now), and the
// difference from this device's clock is kept, so a device whose clock is wrong still counts
// the right seconds. Other players see only that the turn is timed.
import { t } from "../i18n.js";
import { who } from "./texts.js";

/** Under this many seconds the countdown turns urgent. */
const URGENT_S = 10;

/** How often the countdown is redrawn, in ms. */
const TICK_MS = 250;

/** Note the server's clock from a view: server time minus this device's time, in seconds. */
export function takeServerClock(state, view) {
  if (view.server_now !== null && view.server_now !== undefined) {
    state.clockOffset = view.server_now - Date.now() / 1000;
  }
}

/** Seconds left on the timed turn (never below 0), or null when no turn is timed. */
export function secondsLeft(state) {
  const view = state.view;
  if (!view || view.deadline === null || view.deadline === undefined) return null;
  const serverNow = Date.now() / 1000 + (state.clockOffset || 0);
  return Math.max(0, view.deadline - serverNow);
}

/** "0:27" for 27 seconds (rounded up: 0:00 only once the time is out). */
export function clockText(seconds) {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function draw(table) {
  const { state, parts } = table;
  const el = parts.turnTimer;
  const view = state.view;
  const left = secondsLeft(state);
  if (left === null || !view || view.phase === "over") {
    el.hidden = true;
    el.textContent = "";
    return false;
  }
  el.hidden = false;
  if (view.turn === view.seat) {
    el.textContent = left > 0 ? t("words.time_left", { clock: clockText(left) }) : t("words.time_up");
    el.classList.toggle("urgent", left <= URGENT_S);
    el.dataset.mine = "true";
  } else {
    el.textContent = t("words.turn_timed", { name: who(view, view.turn) });
    el.classList.remove("urgent");
    el.dataset.mine = "false";
  }
  return true;
}

/** Show the timer of the turn now, and keep the countdown running while one is timed. */
export function renderTimer(table) {
  const { parts } = table;
  const running = draw(table);
  if (running && !parts.timerTick) {
    parts.timerTick = setInterval(() => {
      // the page moved on (another page mounted): stop ticking
      if (!parts.turnTimer.isConnected || !draw(table)) {
        clearInterval(parts.timerTick);
        parts.timerTick = null;
      }
    }, TICK_MS);
  }
}
