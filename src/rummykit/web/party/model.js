// A party's lobby read off its view (rummykit.protocol.party's PartyView), with no DOM: who is
// in it, whether the host may start and why not. The house rules, their values and what they
// make come from the server (/api/options' presets, the view's in_play and seats). Its words
// are in the party area of the catalogues (../i18n.js).
import { listOf, t } from "../i18n.js";
import { PARTY_PRESET } from "../protocol.js";
import { refusalText } from "../table/refusal_words.js";

/** A party as the page's address names it (server/party_reference.py): "CODE.KEY" from its
 * invite link, or "CODE" typed in. `code`: the code in upper case; `path`: what the server's
 * addresses take (the key kept as it is, for it finds the party without the site's limit on
 * codes alone). */
export function partyReference(raw) {
  const text = String(raw);
  const at = text.indexOf(".");
  const code = (at < 0 ? text : text.slice(0, at)).toUpperCase();
  return { code, path: at < 0 ? code : `${code}.${text.slice(at + 1)}` };
}

/** Where this device keeps its seat in a party: {token, member}. */
export const partyKey = (code) => `rummykit.party.${String(code).toUpperCase()}`;

/** The preset a new party starts from (the server's PARTY_PRESET). */
export { PARTY_PRESET };

const people = (view) => view.members.filter((member) => member.kind === "human");

/** The member viewing, or null (a visitor, a spectator, someone removed). */
export const me = (view) => (view.me === null || view.me === undefined ? null : view.members.find((m) => m.id === view.me) || null);

/** Whether the viewer hosts the party. */
export const isHost = (view) => view.me !== null && view.me !== undefined && view.me === view.host;

/** The host's name. */
export function hostName(view) {
  const host = view.members.find((member) => member.id === view.host);
  return host ? host.name : t("party.someone");
}

/** The people who must mark ready before the start: everyone but the host, whose Start says it. */
const mustBeReady = (view) => people(view).filter((member) => member.id !== view.host);

/** Why the host cannot start yet, or null when they can. */
export function startProblem(view) {
  const seats = view.members.length;
  const min = view.min_seats;
  const max = view.max_seats;
  // a ranked party seats people only: no computer player to suggest
  if (seats < min) return t(view.ranked ? "party.need_players_ranked" : "party.need_players", { min });
  if (seats > max) return t("party.too_many", { max });
  if (view.seats && view.seats.length && !view.seats.includes(seats)) return t("party.rules_cannot_seat", { count: seats });
  const waiting = mustBeReady(view).filter((member) => !member.ready).map((member) => (member.id === view.me ? t("party.you") : member.name));
  return waiting.length ? t("party.waiting_ready", { names: listOf(waiting) }) : null;
}

/** The marks shown by a member's name: {kind (for its style), text (in the page's language)}. */
export function memberMarks(view, member) {
  const marks = [];
  const mark = (kind, text) => marks.push({ kind, text });
  if (member.id === view.me) mark("you", t("party.mark_you"));
  if (member.id === view.host) mark("host", t("party.mark_host"));
  if (member.kind === "bot") mark("computer", t("common.computer_level", { level: t(`common.level.${member.level}`) }));
  else if (member.id !== view.host) mark(member.ready ? "ready" : "not-ready", t(member.ready ? "party.mark_ready" : "party.mark_not_ready"));
  if (member.kind === "human" && !member.connected) mark("away", t("party.mark_away"));
  return marks;
}

/** What the house rules are made of, to see whether they changed between two views. */
const settingsOf = (view) => JSON.stringify([view.preset, view.rules, view.turn_timer, view.spectators]);

/**
 * A note when the rules changed between two views and it cleared the viewer's ready (the
 * server clears everyone's); null otherwise.
 */
export function readyClearedNote(before, after) {
  if (!before || !after || settingsOf(before) === settingsOf(after)) return null;
  const was = me(before);
  const now = me(after);
  if (!was || !now || was.kind !== "human") return null;
  if (isHost(after)) {
    // the host needs no ready of their own: say it when someone else's was cleared
    const cleared = mustBeReady(before).some((m) => m.ready && !(after.members.find((n) => n.id === m.id) || {}).ready);
    return cleared ? t("party.you_changed") : null;
  }
  if (!was.ready || now.ready) return null;
  return t("party.host_changed");
}

/** A code as typed ("ab-12 cd") as the party's code ("AB12CD"). */
export const cleanCode = (typed) => String(typed).replace(/[^A-Za-z0-9]/g, "").toUpperCase();

/** The code spaced for reading aloud: "AB12 CD" → "A B 1 2 C D". */
export const spelled = (code) => String(code).split("").join(" ");

// ----- ranked parties ------------------------------------------------------------------------

/** The refusals of ranked play (the server's RANKED_* codes). */
const RANKED_CODES = new Set(["ranked_account", "ranked_computer", "ranked_timer", "ranked_busy", "ranked_wait"]);

/** Whether a refusal's code is one of ranked play's. */
export const isRankedRefusal = (code) => RANKED_CODES.has(code);

/**
 * A refusal of the party (a join's 409 body {error, code, reason, params}, or a socket's
 * refused data {code, reason, params, message}) in the page's language: its reason worded by
 * the catalogue (protocol/party_words.py, generated into i18n/en/refusals.js), names listed.
 * `joining`: refused on the invite page, where ranked_account means "sign in to join". The
 * server's English only for a reason no catalogue words.
 */
export function partyRefusalText(refusal, { joining = false } = {}) {
  const code = refusal && refusal.code;
  const said = (refusal && (refusal.message || refusal.error)) || "";
  const reason = code === "ranked_account" && joining ? "ranked_sign_in" : (refusal && refusal.reason) || code;
  if (!reason) return said;
  return refusalText(null, { reason, params: (refusal && refusal.params) || {}, message: said });
}

/** A refused party request (an Error from api.js: a creation, a challenge, an invitation) in
 * the page's language: the answer's refusal when it has one, else the Error's sentence. */
export const problemText = (problem) =>
  partyRefusalText(problem.body && problem.body.code ? problem.body : { error: problem.message });

/** The line near the top of the party page: {ranked, text}. */
export const rankedLine = (view) => ({
  ranked: !!view.ranked,
  text: t(view.ranked ? "party.ranked_line" : "party.friendly_line"),
});

/** The settings message that turns a party ranked (`on`) or friendly: ranked needs a turn
 * timer, so one is set (`timer`: the one a ranked party gets) when the party has none. */
export function rankedSettings(view, on, timer) {
  if (on && !view.turn_timer && timer) return { ranked: true, turn_timer: timer };
  return { ranked: on };
}
