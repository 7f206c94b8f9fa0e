// Small helpers shared by every page: building elements and remembering settings.
import { has, lang, t } from "./i18n.js";

/** Make an element: h("button", {class: "x", onclick: f}, "text", child...). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "testid") {
      node.dataset.testid = value;
    } else if (key === "text") {
      node.textContent = value;
    } else if (key in node && typeof value !== "string") {
      node[key] = value;
    } else {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** Replace every child of `node`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** localStorage that never throws (private windows, full disks). */
export const store = {
  get(key, fallback = null) {
    try {
      const raw = localStorage.getItem(key);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch {
      /* nothing to do */
    }
  },
  remove(key) {
    try {
      localStorage.removeItem(key);
    } catch {
      /* nothing to do */
    }
  },
  // The seat token and last table are plain strings, readable by anyone's tooling.
  raw(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  setRaw(key, value) {
    try {
      localStorage.setItem(key, value);
    } catch {
      /* nothing to do */
    }
  },
};

export const seatKey = (table) => `rummykit.seat.${table}`;

/** Where the arena page keeps the arena a table of it seated this browser at. */
export const arenaKey = (table) => `rummykit.arena.${table}`;
export const LAST_TABLE = "rummykit.lastTable";

/** "1 card", "3 cards": the catalogue's plural forms of `common.<many>` when it has them
 * ("card" → `common.cards`), else English. New code calls `t("common.cards", {count})`. */
export function plural(n, one, many = one + "s") {
  const key = `common.${many}`;
  return has(key) ? t(key, { count: n }) : `${n} ${n === 1 ? one : many}`;
}

/** Whether a key event comes from somewhere the user types. */
export function typing(event) {
  const target = event.target;
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  if (target.tagName === "TEXTAREA" || target.tagName === "SELECT") return true;
  if (target.tagName === "INPUT") return !["checkbox", "radio", "button", "submit"].includes(target.type);
  return false;
}

/** A number in the page's language ("1,234" / "1,234"). */
export const number = (value) => new Intl.NumberFormat(lang()).format(value);

/** A deal's points with their sign ("+12", "-68", "0"): under meld points they may be negative. */
export const signed = (value) => (value > 0 ? `+${number(value)}` : number(value));

/** A friendly date from an ISO string or seconds, in the page's language. */
export function when(value) {
  if (value === null || value === undefined || value === "") return "";
  const date = typeof value === "number" ? new Date(value * (value < 1e12 ? 1000 : 1)) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(date);
}

// Display settings remembered in localStorage, applied as classes on <body>.
const SETTINGS = {
  fourColour: { key: "rummykit.fourColour", className: "four-colour" },
  largeCards: { key: "rummykit.largeCards", className: "large-cards" },
};

/** Apply (and optionally change) a remembered display setting. */
export function setting(name, value) {
  const { key, className } = SETTINGS[name];
  if (value !== undefined) store.set(key, !!value);
  const on = !!store.get(key, false);
  document.body.classList.toggle(className, on);
  return on;
}

/** A page that only says something, with the way back to the lobby (and `more` before it). */
export function noticePage(root, title, text, ...more) {
  fill(root, h("section", { class: "panel notice", testid: "notice" },
    h("h1", {}, title),
    h("p", {}, text),
    ...more,
    h("a", { class: "button primary", href: "#/" }, t("common.to_lobby"))));
}

/** The header's connection line ("Connected", "Connection lost…"); `kind` ok or bad. */
export function setConnectionStatus(text, kind) {
  const el = document.getElementById("conn");
  if (!el) return;
  el.textContent = text;
  el.dataset.state = kind;
}

/** The header's words for a dropped connection that is tried again after `waitMs`. */
export const connectionLost = (waitMs) => t("common.connection_lost", { seconds: new Intl.NumberFormat(lang(), { maximumFractionDigits: 1 }).format(waitMs / 1000) });
