// A refusal in the page's language: the server sends its reason and params (seats as ints,
// cards as codes, names and choices as lists) with the English message; this words it as the
// table names seats ("It is Left's turn, not yours.") and shows cards. The English templates
// are Python's (core/refusals.py, core/error_words.py, protocol/table_refusals.py,
// protocol/party_words.py, protocol/account_words.py, generated into i18n/en/refusals.js).
// The one place a page words a refusal: the table's, the party's, an account's and an API
// answer's alike. No DOM here.
import { sentence, worded } from "./event_words.js";

/**
 * The sentence of a refusal for `view` (null away from a table): a refused frame's data
 * {code, reason, params, message} or an answer's body {error, code, reason, params}. The
 * server's English only when the page has no words for its reason (or it has none).
 */
export function refusalText(view, refusal) {
  const key = `refusals.${refusal.reason}`;
  if (!refusal.reason || !worded(key, refusal.params)) return refusal.message ?? refusal.error ?? "";
  return sentence(key, view, refusal.params);
}
