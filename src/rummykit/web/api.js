// Talking to the server: a few JSON requests, and the table's WebSocket (which reconnects).

async function json(url, options) {
  const response = await fetch(url, options);
  // An error page or an empty answer has no JSON body: the status alone then speaks.
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error((body && body.error) || `The server answered ${response.status}.`);
    error.status = response.status;
    throw error;
  }
  return body;
}

export const getOptions = () => json("/api/options");
export const getHistory = () => json("/api/history");
export const getFrames = (id) => json(`/api/games/${encodeURIComponent(id)}/frames`);
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;

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
