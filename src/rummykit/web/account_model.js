// Accounts without the DOM: what a sign-up or sign-in form may send (the server's own limits,
// server/account_messages.py), the server's refusals in our words, and the ranked choice of the
// lobby's "new party" form. Its words are in the account area of the catalogues (./i18n.js).
import { has, lang, t } from "./i18n.js";
import { ACCOUNT_NAME_PATTERN, MAX_PASSWORD, MIN_PASSWORD, RANKED_DEFAULT_TIMER } from "./protocol.js";
import { refusalText as reasonText } from "./table/refusal_words.js";

/** An account's name (the server's ACCOUNT_NAME). */
export const ACCOUNT_NAME = new RegExp(ACCOUNT_NAME_PATTERN);

/** A password's length, in characters, and the ranked form's first timer: the server's. */
export { MAX_PASSWORD, MIN_PASSWORD, RANKED_DEFAULT_TIMER };

/** A password's length as people count characters (an emoji is one), not UTF-16 units. */
const length = (text) => [...String(text)].length;

/** Characters no keyboard types, which the server refuses in a password (control characters
 * such as NUL or tab, and unassigned code points: server/password_strength.py). */
const CONTROL = /[\p{Cc}\p{Cn}]/u;

/**
 * What is wrong with a form before it is sent: {field: sentence}, empty when nothing is.
 * `fields`: {name, password, repeat}; `repeat` is checked only when signing up.
 */
export function formProblems(mode, fields) {
  const problems = {};
  const name = String(fields.name || "").trim();
  const password = String(fields.password || "");
  if (!name) problems.name = t("account.name_missing");
  else if (mode === "up" && !ACCOUNT_NAME.test(name)) problems.name = t("account.name_shape");
  if (!password) problems.password = t("account.password_missing");
  else if (mode === "up" && length(password) < MIN_PASSWORD) problems.password = t("account.password_short", { count: MIN_PASSWORD });
  else if (length(password) > MAX_PASSWORD) problems.password = t("account.password_long", { count: MAX_PASSWORD });
  else if (mode === "up" && CONTROL.test(password)) problems.password = t("account.password_control");
  if (mode === "up" && !problems.password && fields.repeat !== password) problems.repeat = t("account.repeat_differs");
  return problems;
}

/** Seconds to wait from a Retry-After header (seconds, or an HTTP date), or null. */
export function retrySeconds(header, now = Date.now()) {
  if (header === null || header === undefined || header === "") return null;
  const text = String(header).trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The refusal codes of the account routes (server/accounts/account_routes.py); the page
 * words each from its reason (protocol/account_words.py, generated into i18n/en/refusals.js). */
export const ACCOUNT_REFUSALS = Object.freeze([
  "bad_login",
  "name_looks_taken",
  "name_not_allowed",
  "name_taken",
  "too_many_accounts",
  "too_many_attempts",
  "weak_password",
]);

/** Minutes to wait from a Retry-After header (at least 1), or null. */
const retryMinutes = (header) => {
  const seconds = retrySeconds(header);
  return seconds === null ? null : Math.max(1, Math.ceil(seconds / 60));
};

/** The params a reason needs that a body without them (a code alone) leaves to the page: the
 * wait from Retry-After, the look-alike from `like`; null when the page cannot fill them. */
function completed(reason, params, body, retryAfter) {
  const filled = { ...params };
  if (reason === "name_looks_taken" && !filled.name) {
    if (typeof body.like !== "string" || !body.like) return null;
    filled.name = body.like;
  }
  if (reason === "too_many_accounts" && !Number.isFinite(filled.count)) {
    filled.count = retryMinutes(retryAfter);
    if (filled.count === null) return null;
  }
  if (reason === "too_many_attempts" && !Number.isFinite(filled.count)) {
    filled.count = retrySeconds(retryAfter);
    if (filled.count === null) return null;
  }
  return filled;
}

/** What the page says when a refusal's params cannot be filled. */
const UNFILLED = {
  name_looks_taken: "account.name_looks_taken_unnamed",
  too_many_accounts: "account.too_many_accounts_later",
  too_many_attempts: "account.too_many_later",
};

/**
 * A refused account request in our words. `mode`: "up" (sign up) or "in" (sign in); `status`
 * and `body` (the JSON answer {error, code, reason, params}, or null) from the server;
 * `retryAfter` its header.
 */
export function refusalText(mode, status, body, retryAfter) {
  const code = body && body.code;
  const said = body && typeof body.error === "string" ? body.error : "";
  let reason = (body && body.reason) || code;
  if (!body || !code) {
    // no body the page can read: what the status says
    reason = { 409: "name_taken", 429: "too_many_attempts", 401: "bad_login" }[status];
  }
  if (reason && has(`refusals.${reason}`, "en")) {
    const params = completed(reason, (body && body.params) || {}, body || {}, retryAfter);
    if (params === null) return t(UNFILLED[reason]);
    const text = reasonText(null, { reason, params });
    // zxcvbn's advice is in English only: the English page adds it, as the server's sentence does
    return lang() === "en" && typeof params.advice === "string" && params.advice ? `${text} ${params.advice}` : text;
  }
  if (code && said) return said; // a reason not worded here: the server's sentence says why
  if (status === 403) return t("account.other_site");
  if (status === 400) return t(mode === "up" ? "account.bad_new" : "account.bad_form");
  return t("account.failed", { status });
}

/**
 * The "Ranked" choice of the lobby's new party form: whether it may be ticked, why not, and
 * the turn timers it allows. `me`: the account signed in (or null); `timers`: the server's
 * turn timers (GET /api/options).
 */
export function rankedChoice(me, timers) {
  const allowed = (timers || []).filter((seconds) => Number.isInteger(seconds) && seconds > 0);
  if (!me) return { enabled: false, why: t("account.ranked_sign_in"), timers: allowed };
  if (!allowed.length) return { enabled: false, why: t("account.ranked_no_timer"), timers: allowed };
  return { enabled: true, why: t("account.ranked_help"), timers: allowed };
}

/** The timer a form should show once "Ranked" is ticked: the one chosen if ranked allows it,
 * else RANKED_DEFAULT_TIMER (or the longest offered). `chosen`: seconds, or null. */
export function rankedTimer(chosen, timers) {
  if (chosen !== null && chosen !== undefined && timers.includes(chosen)) return chosen;
  if (timers.includes(RANKED_DEFAULT_TIMER)) return RANKED_DEFAULT_TIMER;
  return timers.length ? Math.max(...timers) : null;
}
