// The replay's step sentences (replay.js) in the page's language, from the kinds and params
// each frame carries (server/frames.py), worded as the live table words them. No DOM here.
import { t } from "../i18n.js";
import { eventText } from "../table/event_words.js";

/**
 * What a frame says just happened, in the page's language: its deal or action (`kind`,
 * `params`) and the notices after it (the stock, the deal's end), worded as the live table
 * words them for a spectator; the frame's English `text` when it carries no kind.
 */
export function stepText(frame, players, rules) {
  const view = { seat: null, players: players.map((name) => ({ name, kind: "human" })), rules: rules || {}, deal_result: frame.deal_result || null };
  const lines = [eventText(view, frame), ...(frame.notices || []).map((said) => eventText(view, said))].filter(Boolean);
  return lines.length ? lines.reduce((first, second) => t("words.sentences", { first, second })) : "";
}
