// The table page (#/table/ID, or #/watch/ID to watch): your seat's view, kept live over the
// WebSocket. This module wires the parts in table/ together and talks to the server; each
// part has one job:
//   state.js     what the server sent and the page's own choices, and how frames change them
//   texts.js     the sentences read off the view (names, results, status)
//   layout.js    the page's fixed elements
//   render.js    drawing them from the state (board.js, hand.js, scores.js, advice.js, summary.js)
//   intents.js   what clicks and keys ask the server for; choice.js asks "which one?"
//   reactions.js the quick reactions' buttons
//   keys.js      the keyboard bindings
//   order.js     the hand's order (drag.js moves cards in it); motion.js the cards' flights
import { Connection, getOptions } from "./api.js";
import { t } from "./i18n.js";
import { setPageKeys } from "./keyboard.js";
import { cueFor, playCue, soundSetting } from "./sound.js";
import { noticePage, setConnectionStatus, store, seatKey, LAST_TABLE } from "./util.js";
import { BUBBLE_MS, renderSeats } from "./table/board.js";
import { installDrag } from "./table/drag.js";
import { createIntents } from "./table/intents.js";
import { tableKeys } from "./table/keys.js";
import { addHowtoLink } from "./table/howto_link.js";
import { buildLayout } from "./table/layout.js";
import { createMotion, motionSetting } from "./table/motion.js";
import { reactionList, renderReactions, tooFast } from "./table/reactions.js";
import { appendLog, render, showPace } from "./table/render.js";
import { addSeatSwitch } from "./table/seats.js";
import { messageMoot, newTableState, takeEvent, takeReaction, takeView } from "./table/state.js";
import { eventText, logLines } from "./table/event_words.js";
import { refusalText } from "./table/refusal_words.js";

/** How long a seat's note is redrawn after its move: until its flash (board.js) has ended. */
const NOTE_REDRAW_MS = 3200;

/** The refusal code of a reaction (or an intent) sent too soon after the last. */
const TOO_FAST = "too_fast";

/** Mount the table `tableId`: your seat (its token from this device), or, with `watch`, the
 * table as a spectator sees it. */
export function mountTable(root, tableId, { watch = false } = {}) {
  document.title = t("table.title");
  const token = watch ? null : store.raw(seatKey(tableId));
  if (!watch && !token) {
    noticePage(root, t("table.no_seat_title"), t("table.no_seat_text"));
    return () => {};
  }
  if (!watch) store.setRaw(LAST_TABLE, tableId);

  // The page's one context: every part module reads what it needs from here.
  const table = { root, state: newTableState(tableId), parts: null, intents: null, conn: null, render: null };
  table.render = () => render(table);
  table.intents = createIntents(table);
  table.parts = buildLayout(root, table.intents);
  addSeatSwitch(table); // the number of players, in the Table panel (table/seats.js)
  if (!watch) addHowtoLink(table, tableId); // the rules of this table (#/howto/ID)
  const { state, parts, intents } = table;
  // the hand's own order, moving cards and sound: their settings join the table's
  const motion = createMotion(table);
  const handTools = installDrag(table);
  parts.page.querySelector(".settings")?.append(motionSetting(), soundSetting(), handTools);

  function noSeat() {
    table.conn.stop();
    if (watch) {
      noticePage(root, t("table.no_watch_title"), t("table.no_watch_text"));
      return;
    }
    if (store.raw(LAST_TABLE) === tableId) store.remove(LAST_TABLE);
    noticePage(root, t("table.seat_gone_title"), t("table.seat_gone_text"));
  }

  /** You left for good: the computer has your seat; back to the lobby. */
  table.left = () => {
    table.conn.stop();
    if (store.raw(LAST_TABLE) === tableId) store.remove(LAST_TABLE);
    location.hash = "#/";
  };

  /** Remember what the message line just said: a refusal (with its code) or a notice (see
   * clearMoot); it is styled by its kind. */
  function noteMessage(kind, code = null) {
    state.message = { kind, code, text: parts.message.textContent, version: state.version };
    parts.message.dataset.kind = kind;
  }

  /** Take the message away once it has stopped being true (state.js messageMoot). A message
   * the page said itself (intents.js: "Select the card…") counts as said at `before`. */
  function clearMoot(before) {
    const text = parts.message.textContent;
    if (!text) return;
    const said = state.message && state.message.text === text ? state.message : { kind: "local", code: null, version: before };
    if (messageMoot(state, said)) {
      intents.say("");
      state.message = null;
    }
  }

  function showView(view, version) {
    const before = state.version;
    const old = state.view;
    motion.measure();
    const lines = takeView(state, view, version);
    if (!lines) return;
    clearMoot(before);
    appendLog(parts, lines);
    showPace(parts, view.pace_ms);
    table.render();
    motion.play();
    if (!watch) playCue(cueFor(old, state.view));
  }

  /** The party's next table: this seat's token holds the seat there too. */
  function toRematch(next) {
    table.conn.stop();
    store.setRaw(seatKey(next.table), token);
    store.setRaw(LAST_TABLE, next.table);
    location.hash = `#/table/${encodeURIComponent(next.table)}`;
  }

  function onMessage(msg) {
    if (msg.t === "view") showView(msg.d, msg.v);
    else if (msg.t === "event") {
      motion.event(msg.d);
      appendLog(parts, [takeEvent(state, msg.d)]);
    }
    else if (msg.t === "notice") {
      // the table speaks (the turn timer ran out, the computer plays for someone, they are
      // back, the server restarted): log it and show it
      const text = eventText(state.view, msg.d);
      appendLog(parts, [{ text, kind: "result" }]);
      intents.say(text);
      noteMessage("notice");
    } else if (msg.t === "reaction") {
      takeReaction(state, msg.d);
      if (state.view) renderSeats(table);
      setTimeout(() => state.view && parts.page.isConnected && renderSeats(table), BUBBLE_MS + 50);
    } else if (msg.t === "log") {
      // the deal's story from the server (after a reload or a restart too): it replaces ours
      parts.log.replaceChildren();
      appendLog(parts, logLines(state.view, msg.d));
    } else if (msg.t === "rematch") {
      if (!watch) toRematch(msg.d);
    } else if (msg.t === "refused") {
      if (msg.d.code === TOO_FAST) {
        tooFast(parts, refusalText(state.view, msg.d));
        return;
      }
      state.redealing = false;
      intents.say(refusalText(state.view, msg.d));
      noteMessage("refusal", msg.d.code);
    } else if (msg.t === "hint") {
      state.hint = { ...msg.d, version: msg.v };
      table.render();
    }
  }

  table.conn = new Connection(tableId, watch ? { watch: true, log: true } : { token, log: true }, {
    message: onMessage,
    open: () => {
      setConnectionStatus(t(watch ? "table.conn_watching" : "table.conn_ok"), "ok");
      // "Not connected to the table yet" stops being true now; a notice stays
      if (!state.message || state.message.kind !== "notice" || state.message.text !== parts.message.textContent) intents.say("");
    },
    closed: (wait) => setConnectionStatus(t("table.conn_lost", { seconds: Math.round(wait / 100) / 10 }), "bad"),
    connecting: () => setConnectionStatus(t("table.conn_retrying"), "bad"),
    noSeat,
  });

  setPageKeys(watch ? null : tableKeys(table));

  const timer = setInterval(() => {
    // let "took 7♥" notes stop flashing without waiting for the next message
    if (state.view && Object.values(state.notes).some((note) => Date.now() - note.stamp < NOTE_REDRAW_MS)) renderSeats(table);
  }, 1500);

  if (!watch) {
    getOptions()
      .then((options) => {
        renderReactions(parts, reactionList(options), intents.react);
        table.render();
      })
      .catch(() => {
        /* no reactions offered: the table plays on without them */
      });
  }
  table.conn.start();

  // The board is one screen high under the page's header, whatever the header's height.
  const header = document.querySelector(".top");
  const fitBoard = () => {
    if (header) document.documentElement.style.setProperty("--top-h", `${header.offsetHeight}px`);
  };
  fitBoard();
  const sizer = header && typeof ResizeObserver === "function" ? new ResizeObserver(fitBoard) : null;
  if (sizer) sizer.observe(header);

  return () => {
    clearInterval(timer);
    if (sizer) sizer.disconnect();
    motion.stop();
    table.conn.stop();
    if (parts.choice.open) parts.choice.close();
    if (parts.summary.open) parts.summary.close();
    setConnectionStatus("", "");
  };
}
