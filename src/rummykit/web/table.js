// The table page (#/table/ID): your seat's view, kept live over the WebSocket. This module
// wires the parts in table/ together and talks to the server; each part has one job:
//   state.js    what the server sent and the page's own choices, and how frames change them
//   texts.js    the sentences read off the view (results, status)
//   layout.js   the page's fixed elements
//   render.js   drawing them from the state (board.js, hand.js, scores.js, advice.js, summary.js)
//   intents.js  what clicks and keys ask the server for; choice.js asks "which one?"
//   keys.js     the keyboard bindings
import { Connection, getTable } from "./api.js";
import { setPageKeys } from "./keyboard.js";
import { h, fill, store, seatKey, LAST_TABLE } from "./util.js";
import { renderSeats } from "./table/board.js";
import { createIntents } from "./table/intents.js";
import { tableKeys } from "./table/keys.js";
import { buildLayout } from "./table/layout.js";
import { appendLog, render, showPace } from "./table/render.js";
import { newTableState, takeEvent, takeView } from "./table/state.js";

/** How long a seat's note is redrawn after its move: until its flash (board.js) has ended. */
const NOTE_REDRAW_MS = 3200;

function lobbyNotice(root, title, text) {
  fill(root, h("section", { class: "panel notice" },
    h("h1", {}, title),
    h("p", {}, text),
    h("a", { class: "button primary", href: "#/" }, "To the lobby")));
}

function setConnectionStatus(text, kind) {
  const el = document.getElementById("conn");
  if (!el) return;
  el.textContent = text;
  el.dataset.state = kind;
}

export function mountTable(root, tableId) {
  document.title = "rummykit — table";
  const token = store.raw(seatKey(tableId));
  if (!token) {
    lobbyNotice(root, "No seat here", "This browser holds no seat at that table. Start a new game from the lobby.");
    return () => {};
  }
  store.setRaw(LAST_TABLE, tableId);

  // The page's one context: every part module reads what it needs from here.
  const table = { root, state: newTableState(tableId), parts: null, intents: null, conn: null, render: null };
  table.render = () => render(table);
  table.intents = createIntents(table);
  table.parts = buildLayout(root, table.intents);
  const { state, parts, intents } = table;

  function noSeat() {
    table.conn.stop();
    if (store.raw(LAST_TABLE) === tableId) store.remove(LAST_TABLE);
    lobbyNotice(root, "No seat at this table", "The server does not know this seat any more. Start a new game from the lobby.");
  }

  function showView(view, version) {
    const lines = takeView(state, view, version);
    if (!lines) return;
    appendLog(parts, lines);
    showPace(parts, view.pace_ms);
    table.render();
  }

  function onMessage(msg) {
    if (msg.t === "view") showView(msg.d, msg.v);
    else if (msg.t === "event") appendLog(parts, [takeEvent(state, msg.d)]);
    else if (msg.t === "notice") {
      // the table speaks (the turn timer ran out, the server restarted): log it and show it
      appendLog(parts, [{ text: msg.d.text, kind: "result" }]);
      intents.say(msg.d.text);
    }
    else if (msg.t === "refused") {
      state.redealing = false;
      intents.say(msg.d.message);
    } else if (msg.t === "hint") {
      state.hint = { ...msg.d, version: msg.v };
      table.render();
    }
  }

  /** Read the view over HTTP (at start, and after a reconnection). */
  function fetchView() {
    return getTable(tableId, token).then((found) => {
      if (found.version > table.conn.version) table.conn.version = found.version;
      showView(found.view, found.version);
    });
  }

  table.conn = new Connection(tableId, token, {
    message: onMessage,
    open: () => {
      setConnectionStatus("Connected", "ok");
      if (state.view) {
        fetchView().catch((problem) => {
          if (problem.status === 404) noSeat();
        });
      }
    },
    closed: (wait) => setConnectionStatus(`Connection lost; trying again in ${Math.round(wait / 100) / 10} s…`, "bad"),
    noSeat,
  });

  setPageKeys(tableKeys(table));

  const timer = setInterval(() => {
    // let "took 7♥" notes stop flashing without waiting for the next message
    if (state.view && Object.values(state.notes).some((note) => Date.now() - note.stamp < NOTE_REDRAW_MS)) renderSeats(table);
  }, 1500);

  fetchView()
    .then(() => table.conn.start())
    .catch((problem) => {
      if (problem.status === 404) noSeat();
      else {
        intents.say(`The table could not be loaded (${problem.message}); retrying.`);
        table.conn.start();
      }
    });

  return () => {
    clearInterval(timer);
    table.conn.stop();
    if (parts.choice.open) parts.choice.close();
    if (parts.summary.open) parts.summary.close();
    setConnectionStatus("", "");
  };
}
