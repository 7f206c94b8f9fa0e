// The table's and the party's sockets (web/api.js) without a browser: a fake WebSocket
// records what the page sends. The hello comes first, with the last version seen; intents
// are numbered; one lost in a drop is sent again once, only if the table has not moved.
// Run by tests/web/test_javascript.py.
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { Connection, IntentBook, PartyConnection, SILENT_BEATS, helloMessage } from "../../../src/rummykit/web/api.js";

class FakeSocket {
  static OPEN = 1;
  static made = [];

  constructor(url) {
    this.url = url;
    this.sent = [];
    this.readyState = 0;
    FakeSocket.made.push(this);
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close() {
    this.readyState = 3;
  }

  // the server's side
  opens() {
    this.readyState = FakeSocket.OPEN;
    this.onopen();
  }

  says(message) {
    this.onmessage({ data: JSON.stringify(message) });
  }

  drops(code = 1006) {
    this.readyState = 3;
    this.onclose({ code, reason: "" });
  }
}

const view = (v, d = {}) => ({ t: "view", v, d: { phase: "play", ...d } });

beforeEach(() => {
  FakeSocket.made = [];
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "http:", host: "127.0.0.1:8000" };
});

afterEach(() => {
  delete globalThis.WebSocket;
  delete globalThis.location;
});

/** A connection opened and answered at version `v`, its timers run at once. */
function connected(who, v = 7) {
  const seen = [];
  const events = { opened: 0, noSeat: 0 };
  const conn = new Connection("t1", who, {
    message: (m) => seen.push(m),
    open: () => events.opened++,
    noSeat: () => events.noSeat++,
  }, new IntentBook("page-1"));
  conn.start();
  const socket = FakeSocket.made.at(-1);
  socket.opens();
  socket.says(view(v));
  return { conn, socket, seen, events };
}

/** Drop the socket and let the reconnection happen now (its timer is skipped). */
function reconnect(conn, socket) {
  const timers = [];
  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = (fn) => timers.push(fn);
  try {
    socket.drops();
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  assert.equal(timers.length, 1, "one reconnection planned");
  timers[0]();
  const again = FakeSocket.made.at(-1);
  assert.notEqual(again, socket);
  again.opens();
  return again;
}

test("the hello is the socket's first message; the token never goes in the address", () => {
  const { socket } = connected("secret-token");
  assert.equal(socket.url, "ws://127.0.0.1:8000/ws/t1");
  assert.deepEqual(socket.sent[0], { t: "hello", v: 0, d: { token: "secret-token", client: "page-1", beat: true } });
  assert.deepEqual(helloMessage(3, { watch: true }), { t: "hello", v: 3, d: { watch: true } });
});

test("a spectator says watch, and sends no intents", () => {
  const { conn, socket } = connected({ watch: true });
  assert.deepEqual(socket.sent, [{ t: "hello", v: 0, d: { watch: true, beat: true } }]);
  assert.equal(conn.send("act", { action: "draw stock" }), false);
  conn.stop();
  assert.equal(socket.sent.length, 1, "no bye from a spectator");
});

test("intents that change the table carry increasing numbers; others none", () => {
  const { conn, socket } = connected("tok");
  conn.send("act", { action: "draw stock" });
  conn.send("hint", {});
  conn.send("next", {});
  const [act, hint, next] = socket.sent.slice(1);
  assert.deepEqual(act, { t: "act", v: 7, n: 1, d: { action: "draw stock" } });
  assert.equal(hint.n, undefined);
  assert.equal(next.n, 2);
});

test("each page numbers its intents from 1 under an id of its own", () => {
  const first = new IntentBook();
  const second = new IntentBook();
  assert.match(first.id, /^[0-9a-f]{24}$/);
  assert.notEqual(first.id, second.id);
  assert.deepEqual([first.next(), first.next(), second.next()], [1, 2, 1]);
});

test("the reconnection's hello carries the last version seen", () => {
  const { conn, socket } = connected("tok", 7);
  socket.says({ t: "event", v: 9, d: {} });
  const again = reconnect(conn, socket);
  assert.deepEqual(again.sent[0], { t: "hello", v: 9, d: { token: "tok", client: "page-1", beat: true } });
});

test("an intent lost in a drop is sent again once, with its number, if the table has not moved", () => {
  const { conn, socket } = connected("tok", 7);
  conn.send("act", { action: "discard 7h" });
  const lost = socket.sent.at(-1);
  const again = reconnect(conn, socket);
  again.says(view(7));
  assert.deepEqual(again.sent.slice(1), [lost]);
  // a second drop before any answer: not sent a third time
  const third = reconnect(conn, again);
  third.says(view(7));
  assert.equal(third.sent.length, 1);
});

test("an intent the table played before the drop is not sent again", () => {
  const { conn, socket } = connected("tok", 7);
  conn.send("act", { action: "discard 7h" });
  const again = reconnect(conn, socket);
  again.says({ t: "event", v: 8, d: {} });
  again.says(view(8));
  assert.equal(again.sent.length, 1, "only the hello");
});

test("an answered intent is forgotten: a later drop sends nothing again", () => {
  const { conn, socket } = connected("tok", 7);
  conn.send("act", { action: "discard 7h" });
  socket.says({ t: "refused", v: 7, d: { code: "illegal", message: "No." } });
  const again = reconnect(conn, socket);
  again.says(view(7));
  assert.equal(again.sent.length, 1);
});

test("closing the page says bye; a token with no seat stops the retries", () => {
  const { conn, socket, events } = connected("tok");
  conn.stop();
  assert.deepEqual(socket.sent.at(-1), { t: "bye", v: 7, d: {} });
  const other = connected("bad");
  other.socket.drops(4404);
  assert.equal(other.events.noSeat, 1);
  assert.equal(FakeSocket.made.at(-1), other.socket, "no new socket after 4404");
  assert.equal(events.opened, 1);
});

test("nothing is sent before the server answers the hello", () => {
  const conn = new Connection("t1", "tok", { message: () => {} });
  conn.start();
  const socket = FakeSocket.made.at(-1);
  socket.opens();
  assert.equal(conn.send("act", { action: "draw stock" }), false);
  assert.equal(socket.sent.length, 1);
});

test("a party's socket says hello with its token at /ws/party/CODE", () => {
  const seen = [];
  const party = new PartyConnection("AB12CD", { token: "tok" }, { message: (m) => seen.push(m) });
  party.start();
  const socket = FakeSocket.made.at(-1);
  socket.opens();
  assert.equal(socket.url, "ws://127.0.0.1:8000/ws/party/AB12CD");
  assert.deepEqual(socket.sent[0], { t: "hello", v: 0, d: { token: "tok" } });
  socket.says({ t: "party", v: 4, d: { code: "AB12CD" } });
  party.send("ready", { ready: true });
  assert.deepEqual(socket.sent[1], { t: "ready", v: 4, d: { ready: true } });
  assert.equal(seen.length, 1);
});

/** Run `fn` with setTimeout and clearTimeout kept by hand: the timers planned, by delay. */
function withTimers(fn) {
  const timers = new Map();
  let next = 1;
  const [realSet, realClear] = [globalThis.setTimeout, globalThis.clearTimeout];
  globalThis.setTimeout = (callback, ms) => {
    timers.set(next, { callback, ms });
    return next++;
  };
  globalThis.clearTimeout = (id) => timers.delete(id);
  try {
    fn(timers);
  } finally {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  }
}

/** Fire the one timer planned for `ms` milliseconds. */
function fire(timers, ms) {
  const due = [...timers].filter(([, timer]) => timer.ms === ms);
  assert.equal(due.length, 1, `one timer of ${ms} ms among ${[...timers.values()].map((timer) => timer.ms)}`);
  timers.delete(due[0][0]);
  due[0][1].callback();
}

test("the server's beats are answered at once and never reach the page", () => {
  const { conn, socket, seen } = connected("tok", 7);
  socket.says({ t: "beat", v: 12, d: { every: 2, silent: 6 } });
  assert.deepEqual(socket.sent.at(-1), { t: "beat", v: 7, d: {} });
  assert.equal(seen.length, 1, "only the view");
  conn.stop();
});

test("a socket silent for a few beats is dropped and tried again, saying it is reconnecting", () => {
  withTimers((timers) => {
    const said = [];
    const conn = new Connection("t1", "tok", {
      message: () => {},
      open: () => said.push("open"),
      closed: (wait) => said.push(`closed ${wait}`),
      connecting: () => said.push("connecting"),
    }, new IntentBook("page-1"));
    conn.start();
    const socket = FakeSocket.made.at(-1);
    socket.opens();
    socket.says(view(7));
    assert.equal(timers.size, 0, "no beat yet: the socket is not timed");
    socket.says({ t: "beat", v: 7, d: { every: 2, silent: 6 } });
    const silence = 2 * SILENT_BEATS * 1000;
    socket.says(view(8)); // any word puts the silence off again
    assert.equal(timers.size, 1);
    fire(timers, silence); // then nothing for 5 s: dead
    assert.equal(socket.readyState, 3, "the dead socket is closed");
    assert.equal(socket.onclose, null, "and forgotten");
    assert.deepEqual(said, ["open", "closed 500"]);
    fire(timers, 500);
    const again = FakeSocket.made.at(-1);
    assert.notEqual(again, socket);
    assert.deepEqual(said.at(-1), "connecting");
    // a reconnection that cannot even open in that time (the network swallows it) is given
    // up too, and the wait grows
    fire(timers, silence);
    assert.deepEqual(said.at(-1), "closed 1000");
    fire(timers, 1000);
    const third = FakeSocket.made.at(-1);
    third.opens();
    third.says(view(8));
    assert.equal(third.sent[0].v, 8, "the hello carries the last version seen");
    conn.stop();
    assert.equal(timers.size, 0, "stopping leaves no timer behind");
  });
});

test("a party's socket asks for no beats and is never timed", () => {
  withTimers((timers) => {
    const party = new PartyConnection("AB12CD", { token: "tok" }, { message: () => {} });
    party.start();
    const socket = FakeSocket.made.at(-1);
    socket.opens();
    socket.says({ t: "party", v: 4, d: { code: "AB12CD" } });
    assert.equal(socket.sent[0].d.beat, undefined);
    assert.equal(timers.size, 0);
    party.stop();
  });
});
