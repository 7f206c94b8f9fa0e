// A refusal in the page's language: the server sends its reason and params (seats as ints,
// cards as codes) with the English message; this words it as the table names seats ("It is
// Left's turn, not yours.") and shows cards. The English templates are Python's
// (core/refusals.py, generated into i18n/en/refusals.js). No DOM here.
import { has } from "../i18n.js";
import { sentence } from "./event_words.js";

/** The sentence of a refused frame's data ({code, reason, params, message}) for `view`. */
export function refusalText(view, refusal) {
  const key = `refusals.${refusal.reason}`;
  if (!refusal.reason || !has(key, "en")) return refusal.message;
  return sentence(key, view, refusal.params);
}
