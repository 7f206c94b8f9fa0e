// Talking to the server: a few JSON requests, a table's WebSocket and a party's (both
// reconnect by themselves, and say who they are in their first message, never in the address).
import { t } from "./i18n.js";
import { CLOSE } from "./protocol.js";
import { refusalText } from "./table/refusal_words.js";

/** The response if it is a success; else an Error with the server's sentence, worded in the
 * page's language from its reason and params when it has them, and the status. */
async function answered(response) {
  if (response.ok) return response;
  // An error page or an empty answer has no JSON body: the status alone then speaks.
  const body = await response.json().catch(() => null);
  const said = body && (body.reason ? refusalText(null, body) : body.error);
  const error = new Error(said || t("common.server_answered", { status: response.status }));
  error.status = response.status;
  error.body = body; // a refused join says why (code) and whether watching is open (watch)
  throw error;
}

async function json(url, options) {
  return (await answered(await fetch(url, options))).json();
}

/** A seat's token as the server reads it outside the table's own address: in a header, never
 * in an address that logs may keep. */
const bearer = (token) => (token ? { Authorization: `Bearer ${token}` } : {});

const RECORD_URL_KEPT_MS = 60_000;
const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;

/** The most seat tokens one history request may carry (the server's MAX_HISTORY_TOKENS). */
export const HISTORY_TOKENS_AT_ONCE = 200;

/** The presets, options, levels and reactions (`GET /api/options`): fetched once a page
 * load (some 38 KB, asked for by several parts of the table), again after a failure. */
let options = null;
export const getOptions = () =>
  (options ??= json("/api/options").catch((problem) => {
    options = null;
    throw problem;
  }));

/** What `preset` with the options `rules` changed makes (POST /api/rules): {rules (the
 * changes), in_play (every value, the preset's ties kept), seats (the table sizes they deal),
 * hands (cards each, by table size)}; rules that cannot be played together are an Error with
 * the server's sentence. */
export const getRulesInPlay = (preset, rules) =>
  json("/api/rules", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ preset, rules }),
  });

/** The finished games of these seat tokens, newest first (with every game where the host
 * made the history public), and the tokens the server no longer knows. */
export const getHistory = (tokens) =>
  json("/api/history", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tokens }),
  });

/** A finished game's replay; the token of a seat in it, unless the history is public. */
export const getFrames = (id, token) =>
  json(`/api/games/${encodeURIComponent(id)}/frames`, { headers: bearer(token) });

/** Whether anyone may open a finished game by its short link: {public}. */
export const getShare = (id) => json(`/api/games/${encodeURIComponent(id)}/share`);

const reviewUrl = (id, seat) => `/api/games/${encodeURIComponent(id)}/review/${encodeURIComponent(seat)}`;

/** Ask for the review of a finished game's seat (made once, in the background): where it
 * stands, {state, done, total, review, error}. The same token as the replay needs. */
export const startReview = (id, seat, token) =>
  json(reviewUrl(id, seat), { method: "POST", headers: bearer(token) });

/** Where the review of a finished game's seat stands (see startReview). */
export const getReview = (id, seat, token) => json(reviewUrl(id, seat), { headers: bearer(token) });

/** A pool's leaderboard (`everyone`: every rated account), best first. */
export const getLeaderboard = (pool, everyone) => json(`/api/leaderboard?pool=${encodeURIComponent(pool)}${everyone ? "&all=1" : ""}`);

/** What a place on a leaderboard needs: {min_games, min_opponents, idle_days}. */
export const getThresholds = () => json("/api/leaderboard/thresholds");

/** An account's ratings, figures and recent games (a 404 error: no such account). */
export const getPlayer = (name) => json(`/api/players/${encodeURIComponent(name)}`);
/** A player's puzzle rating and how many puzzles they answered (`PlayerPuzzles`). */
export const getPlayerPuzzles = (name) => json(`/api/players/${encodeURIComponent(name)}/puzzles`);

/**
 * Save a finished game's record as a file. A plain link cannot carry the seat's token, so the
 * page fetches the record and hands the browser the file.
 */
export async function downloadRecord(id, token) {
  const response = await answered(await fetch(recordUrl(id), { headers: bearer(token) }));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `rummy-${id}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download starts after the click returns, so the file is let go only later (a record
  // is a few kilobytes; FileSaver.js waits 40 s for the same reason).
  setTimeout(() => URL.revokeObjectURL(url), RECORD_URL_KEPT_MS);
}

/** A seat's view (for "continue your game"); the token goes in a header, never the address. */
export const getTable = (id, token) =>
  json(`/api/tables/${encodeURIComponent(id)}`, { headers: bearer(token) });

const postJson = (url, body) =>
  json(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

export const createTable = (settings) => postJson("/api/tables", settings);

const partyUrl = (code) => `/api/parties/${encodeURIComponent(code)}`;

/** A new party with you as its host: {code, member, token, url}. */
export const createParty = (settings) => postJson("/api/parties", settings);

/** What the invite page shows before joining: the party's view, with no `me`. */
export const getParty = (code) => json(partyUrl(code));

/** A seat in the party: {code, member, token, url}; a 409 error's `body` says why not
 * (`code`: party_full, party_started) and whether the party may be watched (`watch`). */
export const joinParty = (code, name) => postJson(`${partyUrl(code)}/join`, { name });

/** The parties listed in the lobby with a free seat, the longest waiting first:
 * {tables: [{code, url, preset, target, deals, turn_timer, ranked, seats_taken, seats, host,
 * host_rating, host_provisional}]} (LobbyConnection keeps it live). */
export const getOpenTables = () => json("/api/open-tables");

/** The upcoming and running arenas, then the lately finished: {arenas: [ArenaView]}. */
export const getArenas = () => json("/api/arenas");

/** A new arena, made by the account signed in: its ArenaView. */
export const createArena = (settings) => postJson("/api/arenas", settings);

/** Quick pairing's pools and how many wait in each: {pools: [{pool, ranked, friendly}]}. */
export const getPools = () => json("/api/pools");

// ----- programs' accounts online -------------------------------------------------------------

/** The programs' accounts online now: {bots: [{name, limits, playing}]} (GET /api/bots). */
export const getBots = () => json("/api/bots");

/** Challenge an online program, signed in (`challenge`: {bot, preset, turn_timer, ranked,
 * program_pool}). Answers once the program has: a new party with you as its host, as
 * createParty's, the program joining it; a 409 error's `body` says why not (declined_preset,
 * bot_offline...). */
export const challengeBot = (challenge) => postJson("/api/challenges", challenge);

/** The host (`token`) asks the online program `bot` to the party; answers {accepted, bot}
 * once the program has accepted (it then joins), or a 409 error whose `body` says why not. */
export const inviteBot = (code, token, bot) => postJson(`${partyUrl(code)}/invite`, { token, bot });

// ----- sockets ---------------------------------------------------------------------------

/** The close code of a token that holds no seat there: the one close after which the page
 * does not try again. */
export const NO_SEAT = CLOSE.NO_SEAT;

/** The first wait before reconnecting, doubled after each failure up to the last. */
const FIRST_WAIT_MS = 500;
const LAST_WAIT_MS = 8000;

/** How many of the server's beats may go by without a word before the page takes its socket
 * for dead (a network that swallows every byte keeps a socket open and says nothing): 2.5,
 * so 5 s at the server's 2 s, and one late beat is never taken for a drop. */
export const SILENT_BEATS = 2.5;

/** The socket's first message: who this is (a token, or a spectator) and the last version seen;
 * `who.log` asks for the current deal's story after the view (a `log` frame). */
export function helloMessage(version, who) {
  const d = who.watch ? { watch: true } : who.client ? { token: who.token, client: who.client } : { token: who.token };
  if (who.log) d.log = true;
  if (who.beat) d.beat = true;
  return { t: "hello", v: version, d };
}

/** A random id for this page's intent numbers (crypto.randomUUID needs https; this does not). */
export function newClientId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * One socket that says hello first and reconnects after a drop, with a growing wait (0.5 s
 * doubling to 8 s). `on` receives {message, open, closed, connecting, noSeat}; `open` once
 * the server has answered the hello, so a server that shuts the door at once is not retried in
 * a hurry; `connecting` as a reconnection starts. Where the hello asks for beats (`who.beat`),
 * the server's beats are answered here, never passed on, and a socket that has said nothing
 * for SILENT_BEATS beats' time (or that a reconnection could not open in that time) is taken
 * for dead: dropped, and tried again as after a close.
 */
class HelloSocket {
  constructor(path, who, on) {
    this.path = path;
    this.who = who;
    this.on = on;
    this.version = 0;
    this.socket = null;
    this.wait = FIRST_WAIT_MS;
    this.stopped = false;
    this.timer = 0;
    this.answered = false; // the server has answered this socket's hello
    this.started = false; // a socket was opened before: the next start is a reconnection
    this.every = 0; // seconds between the server's beats (0: none came yet)
    this.silence = 0; // the timer that takes a silent socket for dead
  }

  /** The version this socket's hello says it saw. */
  helloVersion() {
    return this.version;
  }

  start() {
    if (this.stopped) return;
    if (this.started && this.on.connecting) this.on.connecting();
    this.started = true;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${this.path}`);
    this.socket = socket;
    this.answered = false;
    this.listen(socket);
    socket.onopen = () => {
      if (this.socket !== socket) return;
      socket.send(JSON.stringify(helloMessage(this.helloVersion(), this.who)));
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.listen(socket);
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!this.answered) {
        this.answered = true;
        this.wait = FIRST_WAIT_MS;
        this.on.open && this.on.open();
      }
      if (message.t === "beat") {
        this.beat(socket, message);
        return;
      }
      this.received(message);
      this.on.message(message);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      clearTimeout(this.silence);
      if (this.stopped) return;
      if (event.code === NO_SEAT) {
        this.on.noSeat && this.on.noSeat(event.reason);
        return;
      }
      this.retry();
    };
  }

  /** The server's beat: answered at once; the next is due within `every` seconds. */
  beat(socket, message) {
    const every = Number(message.d && message.d.every);
    if (every > 0) {
      this.every = every;
      this.listen(socket);
    }
    socket.send(JSON.stringify({ t: "beat", v: this.version, d: {} }));
  }

  /** Heard from `socket` (or opening it): it is dead if nothing more comes for SILENT_BEATS
   * beats' time. Only once the server has beaten: a server that does not beat is not timed. */
  listen(socket) {
    clearTimeout(this.silence);
    if (!this.every) return;
    this.silence = setTimeout(() => this.silent(socket), this.every * SILENT_BEATS * 1000);
  }

  /** Nothing came for too long: the connection died without closing. Let it go, try again. */
  silent(socket) {
    if (this.socket !== socket || this.stopped) return;
    this.socket = null;
    socket.onopen = socket.onmessage = socket.onclose = null;
    try {
      socket.close();
    } catch {
      /* closing already */
    }
    this.retry();
  }

  /** Try again after the current wait, which grows for the next time. */
  retry() {
    this.on.closed && this.on.closed(this.wait);
    this.timer = setTimeout(() => this.start(), this.wait);
    this.wait = Math.min(this.wait * 2, LAST_WAIT_MS);
  }

  /** A message from the server, before the page's handler sees it. */
  received(message) {
    if (typeof message.v === "number" && message.v > this.version) this.version = message.v;
  }

  get open() {
    return !!this.socket && this.socket.readyState === WebSocket.OPEN && this.answered;
  }

  /** Send a message against the latest version seen; false when not connected. */
  send(type, data = {}) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify({ t: type, v: this.version, d: data }));
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.silence);
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      socket.close();
    }
  }
}

/** The intents that change the table: numbered, and sent again once after a drop. */
const NUMBERED = new Set(["act", "next", "redeal"]);

/**
 * A page's intent numbers and the one intent still waiting for its answer. The numbers count
 * 1, 2, 3... under the page's own id, which its hello gives the server: the server applies an
 * intent only if its number is above the last it applied for that id, so a resend applies
 * once and another page's numbers never get in the way. An intent is answered by a view past
 * the version it was sent against, or by a refusal; one unanswered when the socket dropped is
 * sent again, once, with its number, after the reconnection's view, if that view shows the
 * table has not moved (had it moved, the intent was either played or is out of date).
 */
export class IntentBook {
  constructor(id = newClientId()) {
    this.id = id;
    this.last = 0;
    this.pending = null; // the message sent and not yet answered
    this.resent = false; // whether `pending` was sent again already
  }

  /** The next intent's number. */
  next() {
    this.last += 1;
    return this.last;
  }

  /** The message to send for an intent (numbered when it changes the table). */
  message(type, version, data) {
    if (!NUMBERED.has(type)) return { t: type, v: version, d: data };
    const message = { t: type, v: version, n: this.next(), d: data };
    this.pending = message;
    this.resent = false;
    return message;
  }

  /** A message from the server: does it answer the pending intent? A refusal or an
   * `applied` names the intent it answers by its `n`; a newer view shows it applied. */
  received(message) {
    if (!this.pending) return;
    const answer = message.t === "refused" || message.t === "applied";
    if ((answer && (message.n === undefined || message.n === this.pending.n)) || (message.t === "view" && message.v > this.pending.v)) {
      this.pending = null;
    }
  }

  /** After a reconnection's first view (at `version`): the intent to send again, or null. */
  afterReconnect(version) {
    const pending = this.pending;
    if (!pending) return null;
    if (this.resent || version !== pending.v) {
      this.pending = null;
      return null;
    }
    this.resent = true;
    return pending;
  }
}

/**
 * One seat's connection to a table (`who`: {token} for a seat, {watch: true} to watch):
 * intents are numbered and one lost in a drop is sent again after the reconnection; the
 * page closing says `bye`, so the computer may take the seat's turns sooner. It asks for the
 * server's beats, so that a connection that died silently is noticed within seconds by both.
 */
export class Connection extends HelloSocket {
  constructor(table, who, on, book = new IntentBook()) {
    const seat = { ...(typeof who === "string" ? { token: who } : who), beat: true };
    super(`/ws/${encodeURIComponent(table)}`, seat.watch ? seat : { ...seat, client: book.id }, on);
    this.table = table;
    this.book = book;
    this.reconnected = false; // the socket dropped; its next view decides a resend
    this.everOpened = false;
    this.onPageHide = () => this.bye();
    if (typeof window !== "undefined") window.addEventListener("pagehide", this.onPageHide);
  }

  start() {
    if (this.everOpened) this.reconnected = true;
    this.everOpened = true;
    super.start();
  }

  received(message) {
    super.received(message);
    this.book.received(message);
    if (message.t === "view" && this.reconnected) {
      this.reconnected = false;
      const again = this.book.afterReconnect(message.v);
      if (again && this.socket) this.socket.send(JSON.stringify(again));
    }
  }

  send(type, data = {}) {
    if (!this.open || this.who.watch) return false;
    this.socket.send(JSON.stringify(this.book.message(type, this.version, data)));
    return true;
  }

  /** The page is going away on purpose: say so (a shorter grace before the computer plays). */
  bye() {
    if (this.open && !this.who.watch) this.socket.send(JSON.stringify({ t: "bye", v: this.version, d: {} }));
  }

  stop() {
    this.bye();
    if (typeof window !== "undefined") window.removeEventListener("pagehide", this.onPageHide);
    super.stop();
  }
}

/** A party's lobby socket (`/ws/party/CODE`): `party` views after each change, `refused`
 * answers. `who`: {token} for a member, {watch: true} to watch it fill up. */
export class PartyConnection extends HelloSocket {
  constructor(code, who, on) {
    super(`/ws/party/${encodeURIComponent(code)}`, who, on);
  }

  /** A party's hello says 0: its socket always answers with the whole party. */
  helloVersion() {
    return 0;
  }
}

/** The lobby's socket (`/ws/lobby`): the open tables (`open_tables` frames) now and after
 * every change. It only listens: the server sends, the page sends nothing after its hello. */
export class LobbyConnection extends HelloSocket {
  constructor(on) {
    super("/ws/lobby", { watch: true }, on);
  }

  /** The lobby's hello says 0: the server always answers with the whole list. */
  helloVersion() {
    return 0;
  }
}

/** A signed-in page's inbox (`/ws/inbox`): `inbox` first (the challenges waiting for its
 * answer), then `challenged`, `challenge_sent`, `challenge_gone`, `paired` and `refused`. A
 * page signed out is closed NO_SEAT (`on.noSeat`). */
export class InboxConnection extends HelloSocket {
  constructor(on) {
    super("/ws/inbox", {}, on);
  }

  /** The inbox's hello says 0: the server always answers with what waits. */
  helloVersion() {
    return 0;
  }
}

/** An arena's socket (`/ws/arena/ID`): `arena` views after each change, `paired` when this
 * page's player is seated, `refused`; the page sends `join` and `pause`. */
export class ArenaConnection extends HelloSocket {
  constructor(id, on) {
    super(`/ws/arena/${encodeURIComponent(id)}`, {}, on);
  }

  /** An arena's hello says 0: the server always answers with the whole arena. */
  helloVersion() {
    return 0;
  }
}

/** Try moves at a seat's decision of a finished game (the analysis board): `body` is
 * {seat, deal, action, moves}; the answer is the sampled world as that seat sees it, and its
 * last move judged. The same token as the replay needs. */
/** A puzzle to solve (of `theme`, or any), without its answer: near a signed-in player's
 * puzzle rating. */
export const getNextPuzzle = (theme) => json(`/api/puzzles/next${theme ? `?theme=${encodeURIComponent(theme)}` : ""}`);

/** The day's puzzle, the same for everyone on a UTC date. */
export const getDailyPuzzle = () => json("/api/puzzles/daily");

/** The themes with puzzles, and how many each has. */
export const getPuzzleThemes = () => json("/api/puzzles/themes");

/** An answer to a puzzle: right or not, why, and a signed-in player's rating moved. */
export const answerPuzzle = (id, action) => postJson(`/api/puzzles/${encodeURIComponent(id)}/answer`, { action });

export const tryMoves = (id, body, token) =>
  json(`/api/games/${encodeURIComponent(id)}/analysis`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...bearer(token) },
    body: JSON.stringify(body),
  });
