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
import { Connection, getOptions } from "./api.js";
import { setPageKeys } from "./keyboard.js";
import { noticePage, setConnectionStatus, store, seatKey, LAST_TABLE } from "./util.js";
import { BUBBLE_MS, renderSeats } from "./table/board.js";
import { createIntents } from "./table/intents.js";
import { tableKeys } from "./table/keys.js";
import { addHowtoLink } from "./table/howto_link.js";
import { buildLayout } from "./table/layout.js";
import { reactionList, renderReactions, tooFast } from "./table/reactions.js";
import { appendLog, render, showPace } from "./table/render.js";
import { addSeatSwitch } from "./table/seats.js";
import { newTableState, takeEvent, takeReaction, takeView } from "./table/state.js";

/** How long a seat's note is redrawn after its move: until its flash (board.js) has ended. */
const NOTE_REDRAW_MS = 3200;

/** The refusal code of a reaction (or an intent) sent too soon after the last. */
const TOO_FAST = "too_fast";

/** Mount the table `tableId`: your seat (its token from this device), or, with `watch`, the
 * table as a spectator sees it. */
export function mountTable(root, tableId, { watch = false } = {}) {
  document.title = "rummykit — table";
  const token = watch ? null : store.raw(seatKey(tableId));
  if (!watch && !token) {
    noticePage(root, "No seat here", "This browser holds no seat at that table. Start a new game from the lobby.");
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

  function noSeat() {
    table.conn.stop();
    if (watch) {
      noticePage(root, "Nothing to watch", "This table cannot be watched: its players have not opened it to spectators.");
      return;
    }
    if (store.raw(LAST_TABLE) === tableId) store.remove(LAST_TABLE);
    noticePage(root, "No seat at this table", "The server does not know this seat any more. Start a new game from the lobby.");
  }

  /** You left for good: the computer has your seat; back to the lobby. */
  table.left = () => {
    table.conn.stop();
    if (store.raw(LAST_TABLE) === tableId) store.remove(LAST_TABLE);
    location.hash = "#/";
  };

  function showView(view, version) {
    const lines = takeView(state, view, version);
    if (!lines) return;
    appendLog(parts, lines);
    showPace(parts, view.pace_ms);
    table.render();
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
    else if (msg.t === "event") appendLog(parts, [takeEvent(state, msg.d)]);
    else if (msg.t === "notice") {
      // the table speaks (the turn timer ran out, the computer plays for someone, they are
      // back, the server restarted): log it and show it
      appendLog(parts, [{ text: msg.d.text, kind: "result" }]);
      intents.say(msg.d.text);
    } else if (msg.t === "reaction") {
      takeReaction(state, msg.d);
      if (state.view) renderSeats(table);
      setTimeout(() => state.view && parts.page.isConnected && renderSeats(table), BUBBLE_MS + 50);
    } else if (msg.t === "rematch") {
      if (!watch) toRematch(msg.d);
    } else if (msg.t === "refused") {
      if (msg.d.code === TOO_FAST) {
        tooFast(parts, msg.d.message);
        return;
      }
      state.redealing = false;
      intents.say(msg.d.message);
    } else if (msg.t === "hint") {
      state.hint = { ...msg.d, version: msg.v };
      table.render();
    }
  }

  table.conn = new Connection(tableId, watch ? { watch: true } : { token }, {
    message: onMessage,
    open: () => setConnectionStatus(watch ? "Watching" : "Connected", "ok"),
    closed: (wait) => setConnectionStatus(`Connection lost; trying again in ${Math.round(wait / 100) / 10} s…`, "bad"),
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

  return () => {
    clearInterval(timer);
    table.conn.stop();
    if (parts.choice.open) parts.choice.close();
    if (parts.summary.open) parts.summary.close();
    setConnectionStatus("", "");
  };
}
