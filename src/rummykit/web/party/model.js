// A party's lobby read off its view (server/party_messages.py's PartyView), with no DOM: who
// is in it, whether the host may start and why not, and the house rules' values. The rules'
// titles, help, choices and defaults all come from /api/options; the one list kept here maps
// the rule text's house rules (seeds/003) to the engine's option names, with the values
// that text offers. Its words are in the party area of the catalogues (../i18n.js).
import { has, listOf, t } from "../i18n.js";
import { PARTY_PRESET } from "../protocol.js";

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

/**
 * The house rules of the rule text, in its order: each names an engine option and the values
 * the text offers (a label, as a function giving it in the page's language, only where
 * /api/options has none for that value). Every other option goes under "More rules".
 */
const points = (count) => () => t("party.target_points", { count });
export const HOUSE_RULES = [
  { option: "target", values: [[50, points(50)], [100, points(100)], [200, points(200)]] },
  { option: "scoring", values: [["winner"], ["penalty"]] },
  { option: "hand_size", values: [["by_seats"], [7, () => t("party.seven_each")]] },
  { option: "aces", values: [["low"], ["low_or_high"]] },
  { option: "layoff", values: [["anytime"], ["after_meld"]] },
  { option: "melds_per_turn", values: [[0, () => t("party.any_number")], [1, () => t("party.one_a_turn")]] },
  { option: "go_out", values: [["any"], ["discard"]] },
  { option: "rummy_bonus", values: [["double"], ["none"]] },
  { option: "renewals", values: [[15], [1], [3]] },
];

const HOUSE_OPTIONS = new Set(HOUSE_RULES.map((rule) => rule.option));

/** Whether an option is one of the rule text's house rules (else it is under "More rules"). */
export const isHouseRule = (option) => HOUSE_OPTIONS.has(option);

/** A value's label: the one given (a text, or a function giving it), the option's own choice
 * label, or the value itself. */
export function valueLabel(field, value, given) {
  if (given) return typeof given === "function" ? given() : given;
  const found = (field.choices || []).find((choice) => choice.value === value);
  if (found) return found.label;
  if (value === null) return field.none || t("party.no_limit");
  if (typeof value === "boolean") return t(value ? "party.yes" : "party.no");
  return String(value);
}

/** The choices offered for a house rule: [value, label], with the party's value added when
 * it is none of them (a preset may start elsewhere). */
export function houseChoices(rule, field, current) {
  const choices = rule.values.map(([value, label]) => [value, valueLabel(field, value, label)]);
  if (current !== undefined && !choices.some(([value]) => value === current)) {
    choices.push([current, valueLabel(field, current)]);
  }
  return choices;
}

/** An option's value at the party: its override, else what the preset's ties make it, else
 * the preset's (`preset`: /api/options' presets[name]). */
export function ruleValue(preset, rules, option) {
  if (Object.hasOwn(rules, option)) return rules[option];
  return presetValue(preset, rules, option);
}

/** What an option is without an override of its own: a tie's value (aces allowed high make an
 * ace cost 15), else the preset's. */
export function presetValue(preset, rules, option) {
  for (const tie of preset.ties || []) {
    if (tie.follower !== option) continue;
    const leader = ruleValue(preset, rules, tie.option);
    const pair = tie.values.find(([lead]) => lead === leader);
    if (pair) return pair[1];
  }
  return preset.rules[option];
}

/** The overrides after setting one option: a value equal to the preset's is dropped. */
export function withRule(preset, rules, option, value) {
  const next = { ...rules };
  delete next[option];
  if (presetValue(preset, next, option) !== value) next[option] = value;
  return next;
}

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
  if (!reason || !has(`refusals.${reason}`, "en")) return said;
  const params = { ...((refusal && refusal.params) || {}) };
  if (Array.isArray(params.names)) {
    params.count ??= params.names.length;
    params.names = listOf(params.names);
  }
  return t(`refusals.${reason}`, params);
}

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
