// Quick reactions: the fixed set the server offers (/api/options `reactions`), a row of
// buttons that send one, and a quiet word when they come too fast. The bubble at the
// sender's seat is board.js's.
import { t } from "../i18n.js";
import { h, fill } from "../util.js";
import { reactionText } from "./texts.js";

/** How long the "too fast" word stays, in ms. */
const QUIET_MS = 3000;

/** The reactions offered, as [{key, text}], from /api/options' `reactions`: an object
 * {key: text} in the order to offer, or a list of {key, text} or [key, text]. */
export function reactionList(options) {
  const offered = options && options.reactions;
  if (!offered) return [];
  if (Array.isArray(offered)) {
    return offered
      .map((item) => (Array.isArray(item) ? { key: item[0], text: item[1] } : { key: item.key, text: item.text }))
      .filter((item) => item.key && item.text);
  }
  return Object.entries(offered).map(([key, text]) => ({ key, text }));
}

/** Fill the row with a button per reaction (render.js shows it at a party's table). */
export function renderReactions(parts, list, send) {
  fill(parts.reactions, list.map(({ key, text }) =>
    h("button", { type: "button", class: "ghost small-btn reaction", testid: `react-${key}`, "data-reaction": key, onclick: () => send(key) }, reactionText(key, text))));
}

/** Say, quietly and for a moment, that the server refused a reaction as too fast. */
export function tooFast(parts, text) {
  parts.reactionNote.textContent = text || t("words.slow_down");
  clearTimeout(parts.reactionNoteTimer);
  parts.reactionNoteTimer = setTimeout(() => (parts.reactionNote.textContent = ""), QUIET_MS);
}
