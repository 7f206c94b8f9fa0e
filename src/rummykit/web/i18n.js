// The interface's words in English and Japanese. Every string a page shows comes from a
// message catalogue (i18n/<language>/<area>.js) through `t`; nothing here touches the DOM
// except `applyStatic`, so Node's unit tests import it as it is.
//
// A catalogue entry is a string with `{name}` placeholders, or, for words that change with a
// number, an object of plural forms ({one, other}) chosen by `Intl.PluralRules` from
// `params.count`. Keys start with their area: "table.draw", "lobby.start".
import enCommon from "./i18n/en/common.js";
import enEvents from "./i18n/en/events.js";
import enHand from "./i18n/en/hand.js";
import enHistory from "./i18n/en/history.js";
import enHowto from "./i18n/en/howto.js";
import enKeys from "./i18n/en/keys.js";
import enLobby from "./i18n/en/lobby.js";
import enParty from "./i18n/en/party.js";
import enPractice from "./i18n/en/practice.js";
import enRefusals from "./i18n/en/refusals.js";
import enReplay from "./i18n/en/replay.js";
import enRules from "./i18n/en/rules.js";
import enSeats from "./i18n/en/seats.js";
import enTable from "./i18n/en/table.js";
import enWords from "./i18n/en/words.js";
import jaCommon from "./i18n/ja/common.js";
import jaEvents from "./i18n/ja/events.js";
import jaHand from "./i18n/ja/hand.js";
import jaHistory from "./i18n/ja/history.js";
import jaHowto from "./i18n/ja/howto.js";
import jaKeys from "./i18n/ja/keys.js";
import jaLobby from "./i18n/ja/lobby.js";
import jaParty from "./i18n/ja/party.js";
import jaPractice from "./i18n/ja/practice.js";
import jaRefusals from "./i18n/ja/refusals.js";
import jaReplay from "./i18n/ja/replay.js";
import jaRules from "./i18n/ja/rules.js";
import jaSeats from "./i18n/ja/seats.js";
import jaTable from "./i18n/ja/table.js";
import jaWords from "./i18n/ja/words.js";

/** The areas of each catalogue, by name (the Node test checks English and Japanese agree). */
export const CATALOGUES = {
  en: {
    common: enCommon, events: enEvents, hand: enHand, history: enHistory, howto: enHowto, keys: enKeys,
    lobby: enLobby, party: enParty, practice: enPractice, refusals: enRefusals, replay: enReplay,
    rules: enRules, seats: enSeats, table: enTable, words: enWords,
  },
  ja: {
    common: jaCommon, events: jaEvents, hand: jaHand, history: jaHistory, howto: jaHowto, keys: jaKeys,
    lobby: jaLobby, party: jaParty, practice: jaPractice, refusals: jaRefusals, replay: jaReplay,
    rules: jaRules, seats: jaSeats, table: jaTable, words: jaWords,
  },
};

/** The languages offered, each named in itself (for the switch in the page's header). */
export const LANGUAGES = { en: "English", ja: "日本語" };

const LANG_KEY = "rummykit.lang";
const merged = Object.fromEntries(
  Object.entries(CATALOGUES).map(([code, areas]) => [code, Object.assign({}, ...Object.values(areas))]),
);

function storedLang() {
  try {
    return globalThis.localStorage ? globalThis.localStorage.getItem(LANG_KEY) : null;
  } catch {
    return null;
  }
}

/** The language the browser asks for, when we have it; else English. */
export function browserLang(languages = globalThis.navigator ? globalThis.navigator.languages || [] : []) {
  for (const tag of languages) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (Object.hasOwn(LANGUAGES, code)) return code;
  }
  return "en";
}

let current = Object.hasOwn(LANGUAGES, storedLang() || "") ? storedLang() : browserLang();

/** The language in use: "en" or "ja". */
export const lang = () => current;

/** Switch the language (remembered), tell the page ("rummy:lang" on window) to redraw. */
export function setLang(code, { remember = true } = {}) {
  if (!Object.hasOwn(LANGUAGES, code)) throw new Error(`No such language: ${code}`);
  current = code;
  if (remember) {
    try {
      globalThis.localStorage?.setItem(LANG_KEY, code);
    } catch {
      /* a private window: the choice lasts for this page only */
    }
  }
  if (globalThis.document) globalThis.document.documentElement.lang = code;
  if (globalThis.dispatchEvent && globalThis.CustomEvent) {
    globalThis.dispatchEvent(new CustomEvent("rummy:lang", { detail: code }));
  }
}

/** Whether the catalogue has `key` (for words that exist only in some cases). */
export const has = (key, code = current) => Object.hasOwn(merged[code], key);

/** The words for `key` in the language in use, with `{name}` filled from `params`.
 * A key missing from the catalogue shows as itself (and the Node test fails). */
export function t(key, params = {}, code = current) {
  const entry = has(key, code) ? merged[code][key] : merged.en[key];
  if (entry === undefined) return key;
  let text = entry;
  if (typeof entry === "object") {
    const form = new Intl.PluralRules(code).select(Number(params.count ?? 0));
    text = entry[form] ?? entry.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** A list in the language's own way: "A, B and C" / "A、B、C". */
export function listOf(items, code = current) {
  return new Intl.ListFormat(code, { style: "long", type: "conjunction" }).format(items.map(String));
}

/** Fill the static page's words: `data-i18n="key"` sets the text, `data-i18n-attr="title:key
 * aria-label:key"` sets attributes. */
export function applyStatic(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(/\s+/).filter(Boolean)) {
      const [attr, key] = pair.split(":");
      node.setAttribute(attr, t(key));
    }
  }
}
