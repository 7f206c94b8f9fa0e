// Talking to the server: a few JSON requests, and the table's WebSocket (which reconnects).

/** The response if it is a success; else an Error with the server's sentence and the status. */
async function answered(response) {
  if (response.ok) return response;
  // An error page or an empty answer has no JSON body: the status alone then speaks.
  const body = await response.json().catch(() => null);
  const error = new Error((body && body.error) || `The server answered ${response.status}.`);
  error.status = response.status;
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

export const getOptions = () => json("/api/options");

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

export const getTable = (id, token) =>
  json(`/api/tables/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`);

export const createTable = (settings) =>
  json("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(settings),
  });

/**
 * One seat's connection. `on` receives {message, open, closed, noSeat}. Drops are retried
 * with a growing wait (0.5 s doubling to 8 s); each new connection re-reads the view.
 */
export class Connection {
  constructor(table, token, on) {
    this.table = table;
    this.token = token;
    this.on = on;
    this.version = 0;
    this.socket = null;
    this.wait = 500;
    this.stopped = false;
    this.timer = 0;
  }

  start() {
    if (this.stopped) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/ws/${encodeURIComponent(this.table)}?token=${encodeURIComponent(this.token)}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.wait = 500;
      this.on.open && this.on.open();
    };
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (typeof message.v === "number" && message.v > this.version) this.version = message.v;
      this.on.message(message);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (event.code === 4404) {
        this.on.noSeat && this.on.noSeat(event.reason);
        return;
      }
      this.on.closed && this.on.closed(this.wait);
      this.timer = setTimeout(() => this.start(), this.wait);
      this.wait = Math.min(this.wait * 2, 8000);
    };
  }

  get open() {
    return !!this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  /** Send an intent against the latest version seen; false when not connected. */
  send(type, data = {}) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify({ t: type, v: this.version, d: data }));
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      socket.close();
    }
  }
}
