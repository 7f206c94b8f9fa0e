// The table's clocks: the turn timer's countdown, for whoever's turn it is, and between two
// deals at a party the countdown to the next deal. The server alone decides when a time has
// run out; the page only shows what is left, measured on the server's clock: each view
// brings the server's time (server_now), and the difference from this device's clock is
// kept, so a device whose clock is wrong still counts the right seconds. Everyone sees the
// clock of the player whose turn it is, in the status strip and at that player's seat.
import { listOf, t } from "../i18n.js";
import { waitingForOthers, who } from "./texts.js";

/** Under this many seconds the countdown turns urgent. */
const URGENT_S = 10;

/** How often the countdowns are redrawn, in ms. */
const TICK_MS = 250;

/** Note the server's clock from a view: server time minus this device's time, in seconds. */
export function takeServerClock(state, view) {
  if (view.server_now !== null && view.server_now !== undefined) {
    state.clockOffset = view.server_now - Date.now() / 1000;
  }
}

/** Seconds until `deadline` (server clock) from now (never below 0); null without one. */
export function secondsUntil(state, deadline) {
  if (deadline === null || deadline === undefined) return null;
  const serverNow = Date.now() / 1000 + (state.clockOffset || 0);
  return Math.max(0, deadline - serverNow);
}

/** Seconds left on the timed turn (never below 0), or null when no turn is timed. */
export function secondsLeft(state) {
  return state.view ? secondsUntil(state, state.view.deadline) : null;
}

/** Seconds left before the next deal is dealt whoever still reads (a party, once someone
 * pressed "Next deal"), or null when no countdown runs. */
export function nextDealLeft(state) {
  const view = state.view;
  if (!view || view.phase !== "over" || view.game_over) return null;
  return secondsUntil(state, view.next_deadline);
}

/** "0:27" for 27 seconds (rounded up: 0:00 only once the time is out). */
export function clockText(seconds) {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The line under a deal's summary while the next deal waits: who still reads, and when it
 * is dealt anyway ("" when no countdown runs). */
export function nextWaitText(view, left) {
  if (left === null) return "";
  const clock = clockText(left);
  // the others still reading (a reader is not told they read)
  const reading = (view.next_waiting || []).filter((seat) => seat !== view.seat).map((seat) => who(view, seat));
  if (waitingForOthers(view) && reading.length) return t("words.next_ready_waiting", { names: listOf(reading), clock });
  if (reading.length) return t("words.next_reading", { names: listOf(reading), clock });
  return t("words.next_in", { clock });
}

/** Whether the turn now is a person's whose clock waits for their page (none yet). */
const heldTurn = (view) => !!view.turn_timer && view.phase !== "over" && view.players[view.turn] && view.players[view.turn].kind === "human" && !view.players[view.turn].stand_in;

function drawTurn(table) {
  const { state, parts } = table;
  const el = parts.turnTimer;
  const view = state.view;
  const left = secondsLeft(state);
  if (!view || view.phase === "over" || (left === null && !heldTurn(view))) {
    el.hidden = true;
    el.textContent = "";
    return false;
  }
  el.hidden = false;
  const mine = view.turn === view.seat;
  el.dataset.mine = String(mine);
  if (left === null) {
    el.textContent = t("words.turn_timed", { name: who(view, view.turn) });
    el.classList.remove("urgent");
    return false;
  }
  const clock = clockText(left);
  if (mine) el.textContent = left > 0 ? t("words.time_left", { clock }) : t("words.time_up");
  else el.textContent = left > 0 ? t("words.time_left_for", { name: who(view, view.turn), clock }) : t("words.time_up_for", { name: who(view, view.turn) });
  el.classList.toggle("urgent", mine && left <= URGENT_S);
  // the same seconds at the seat whose turn it is (board.js draws the place for them)
  for (const at of parts.page.querySelectorAll("[data-testid=seat-clock]")) {
    if (at.textContent !== clock) at.textContent = clock;
    at.classList.toggle("urgent", left <= URGENT_S);
  }
  return true;
}

function drawNextWait(table) {
  const { state, parts } = table;
  const left = nextDealLeft(state);
  const el = parts.summary.querySelector("[data-testid=next-wait]");
  if (el) {
    const text = nextWaitText(state.view, left);
    if (el.textContent !== text) el.textContent = text;
  }
  return left !== null;
}

function draw(table) {
  const turn = drawTurn(table);
  const next = drawNextWait(table);
  return turn || next;
}

/** Show the clocks of the moment, and keep them counting while one runs. */
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
