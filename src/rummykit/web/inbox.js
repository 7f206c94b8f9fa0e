// The inbox: while someone is signed in, every page keeps /ws/inbox open (docs/PROTOCOL.md
// §2d). Challenges made to them show in a bar at the top of whatever page is open, with
// Accept and Decline; a challenge accepted (theirs or one they made) opens the table. Pages
// that challenge someone (a player's page) send through it and listen with `onInbox`.
import { onAccount, signedIn, whenKnown } from "./account.js";
import { InboxConnection } from "./api.js";
import { t } from "./i18n.js";
import { enterTable } from "./party/seat.js";
import { presetName } from "./rule_words.js";
import { h, fill } from "./util.js";

let connection = null;
const listeners = new Set();
const waiting = new Map(); // the challenges to this person, by id: {view, until}
let bar = null;
let ticking = 0;

/** The terms of a challenge in short: "classic · 60 seconds a turn · ranked". */
export function challengeTerms(view) {
  return [
    presetName(view.preset),
    view.turn_timer ? t("challenges.turn", { count: view.turn_timer }) : t("challenges.no_timer"),
    t(view.ranked ? "challenges.ranked" : "challenges.friendly"),
  ].join(" · ");
}

/** Listen to the inbox's messages (`listener(message)`); returns the way to stop. */
export function onInbox(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Send a message on the inbox; false when it is not open (signed out, or reconnecting). */
export const sendToInbox = (type, data = {}) => !!connection && connection.send(type, data);

function answer(type, id) {
  sendToInbox(type, { id });
}

function draw() {
  if (!bar) return;
  const now = Date.now();
  fill(bar, [...waiting.values()].map(({ view, until }) =>
    h("div", { class: "challenge-card", testid: "incoming-challenge", "data-id": String(view.id), role: "group", "aria-label": t("challenges.from", { name: view.by }) },
      h("p", {},
        h("strong", {}, t("challenges.from", { name: view.by })), " ",
        h("span", { testid: "incoming-terms" }, challengeTerms(view)), " ",
        h("span", { class: "help", testid: "incoming-left" }, t("challenges.left", { count: Math.max(0, Math.ceil((until - now) / 1000)) }))),
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", testid: "accept-challenge", onclick: () => answer("accept", view.id) }, t("challenges.accept")),
        h("button", { type: "button", testid: "decline-challenge", onclick: () => answer("decline", view.id) }, t("challenges.decline"))))));
  bar.hidden = waiting.size === 0;
  clearInterval(ticking);
  if (waiting.size) ticking = setInterval(tick, 1000);
}

function tick() {
  for (const node of bar ? bar.querySelectorAll("[data-testid=incoming-left]") : []) {
    const entry = waiting.get(Number(node.closest("[data-id]").dataset.id));
    if (entry) node.textContent = t("challenges.left", { count: Math.max(0, Math.ceil((entry.until - Date.now()) / 1000)) });
  }
}

function heard(message) {
  if (message.t === "inbox") {
    waiting.clear();
    for (const view of message.d.challenges) waiting.set(view.id, { view, until: Date.now() + view.expires_in_s * 1000 });
    draw();
  } else if (message.t === "challenged") {
    waiting.set(message.d.id, { view: message.d, until: Date.now() + message.d.expires_in_s * 1000 });
    draw();
  } else if (message.t === "challenge_gone") {
    if (waiting.delete(message.d.id)) draw();
  } else if (message.t === "paired") {
    waiting.clear();
    draw();
    enterTable(message.d);
  }
  for (const listener of listeners) listener(message);
}

function start() {
  if (connection) return;
  connection = new InboxConnection({ message: heard, noSeat: stop });
  connection.start();
}

function stop() {
  if (connection) connection.stop();
  connection = null;
  waiting.clear();
  draw();
}

/** Keep the inbox open while someone is signed in (called once, as the page loads). */
export function installInbox() {
  bar = h("div", { class: "challenges-bar", testid: "challenges-bar", role: "region", "aria-live": "polite", "aria-label": t("challenges.region"), hidden: true });
  document.body.prepend(bar);
  onAccount((me) => (me ? start() : stop()));
  whenKnown().then(() => signedIn() && start());
  window.addEventListener("rummy:lang", () => {
    bar.setAttribute("aria-label", t("challenges.region"));
    draw();
  });
}
