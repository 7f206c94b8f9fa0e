// The interface's words in English and Japanese. Every string a page shows comes from a
// message catalogue (i18n/<language>/<area>.js) through `t`; nothing here touches the DOM
// except `applyStatic`, so Node's unit tests import it as it is.
//
// Only the page's language is fetched (a top-level await below), so a page never carries the
// other language's words.
//
// A catalogue entry is a string with `{name}` placeholders, or, for words that change with a
// number, an object of plural forms ({one, other}) chosen by `Intl.PluralRules` from
// `params.count`. Keys start with their area: "table.draw", "lobby.start".

/** The catalogues loaded so far, by language, each as {area: {key: words}}. A page loads
 * only its own language (another on a switch); Node's tests have both from the start. */
export const CATALOGUES = {};
const merged = {};

/** Load a language's catalogue (once); resolves when `t` can speak it. */
export async function loadLanguage(code) {
  if (!Object.hasOwn(CATALOGUES, code)) {
    const areas = (await import(`./i18n/${code}/index.js`)).default;
    CATALOGUES[code] = areas;
    merged[code] = Object.assign({}, ...Object.values(areas));
  }
  return CATALOGUES[code];
}

/** The languages offered, each named in itself (for the switch in the page's header). */
export const LANGUAGES = { en: "English", ja: "日本語" };

const LANG_KEY = "rummykit.lang";

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
await (globalThis.document ? loadLanguage(current) : Promise.all(Object.keys(LANGUAGES).map(loadLanguage)));

/** The language in use: "en" or "ja". */
export const lang = () => current;

/** Switch the language (remembered), tell the page ("rummy:lang" on window) to redraw. At
 * once when its catalogue is loaded; else once it is (the promise says when). */
export function setLang(code, { remember = true } = {}) {
  if (!Object.hasOwn(LANGUAGES, code)) throw new Error(`No such language: ${code}`);
  if (remember) {
    // at once, so a page opened while the catalogue loads already speaks it
    try {
      globalThis.localStorage?.setItem(LANG_KEY, code);
    } catch {
      /* a private window: the choice lasts for this page only */
    }
  }
  if (!Object.hasOwn(CATALOGUES, code)) return loadLanguage(code).then(() => setLang(code, { remember: false }));
  current = code;
  if (globalThis.document) globalThis.document.documentElement.lang = code;
  if (globalThis.dispatchEvent && globalThis.CustomEvent) {
    globalThis.dispatchEvent(new CustomEvent("rummy:lang", { detail: code }));
  }
  return Promise.resolve();
}

/** Whether the catalogue has `key` (for words that exist only in some cases). Every
 * language has the same keys (a test says so), so a language not loaded asks the page's. */
export const has = (key, code = current) => Object.hasOwn(merged[code] || merged[current], key);

/** The words for `key` in the language in use, with `{name}` filled from `params`.
 * A key missing from the catalogue shows as itself (and the Node test fails). */
export function t(key, params = {}, code = current) {
  const entry = has(key, code) ? merged[code][key] : (merged.en || {})[key];
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

/** Choices in the language's own way: "A, B or C" / "A、B、またはC". */
export function orOf(items, code = current) {
  return new Intl.ListFormat(code, { style: "long", type: "disjunction" }).format(items.map(String));
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
