// Accounts without the DOM: what a sign-up or sign-in form may send (the server's own limits,
// server/account_messages.py), the server's refusals in our words, and the ranked choice of the
// lobby's "new party" form. Its words are in the account area of the catalogues (./i18n.js).
import { lang, t } from "./i18n.js";
import { ACCOUNT_NAME_PATTERN, MAX_PASSWORD, MIN_PASSWORD, RANKED_DEFAULT_TIMER } from "./protocol.js";

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

/** The refusal codes of the account routes (server/account_routes.py), each worded here in the
 * player's language; a test checks that the server sends no other. */
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

/**
 * A refused account request in our words. `mode`: "up" (sign up) or "in" (sign in); `status`
 * and `body` (the JSON answer, or null) from the server; `retryAfter` its header.
 */
export function refusalText(mode, status, body, retryAfter) {
  const code = body && body.code;
  const said = body && typeof body.error === "string" ? body.error : "";
  if (code === "weak_password") {
    // the server's sentence carries zxcvbn's advice ("This is a top-10 common password."),
    // which is in English only: other languages say what to do in their own words
    return lang() === "en" && said ? said : t("account.password_weak");
  }
  if (code === "name_not_allowed") return t("account.name_not_allowed");
  if (code === "name_looks_taken") {
    if (typeof body.like === "string" && body.like) return t("account.name_looks_taken", { name: body.like });
    return t("account.name_looks_taken_unnamed");
  }
  if (code === "too_many_accounts") {
    const minutes = retryMinutes(retryAfter);
    return minutes === null ? t("account.too_many_accounts_later") : t("account.too_many_accounts", { count: minutes });
  }
  if (code && !ACCOUNT_REFUSALS.includes(code) && said) return said; // a code not worded here
  if (status === 409 || code === "name_taken") return t("account.name_taken");
  if (status === 429 || code === "too_many_attempts") {
    const seconds = retrySeconds(retryAfter);
    return seconds === null ? t("account.too_many_later") : t("account.too_many", { count: seconds });
  }
  if (status === 401 || code === "bad_login") return t("account.bad_login");
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
