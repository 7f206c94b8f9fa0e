// A party's lobby read off its view (server/party_messages.py's PartyView), with no DOM: who
// is in it, whether the host may start and why not, and the house rules' values. The rules'
// titles, help, choices and defaults all come from /api/options; the one list kept here maps
// the rule text's house rules (seeds/003) to the engine's option names, with the values
// that text offers.

/** Where this device keeps its seat in a party: {token, member}. */
export const partyKey = (code) => `rummykit.party.${String(code).toUpperCase()}`;

/** The preset a new party starts from: the rule text's own defaults. */
export const PARTY_PRESET = "party";

/**
 * The house rules of the rule text, in its order: each names an engine option and the values
 * the text offers (a label only where /api/options has none for that value). Every other
 * option goes under "More rules".
 */
export const HOUSE_RULES = [
  { option: "target", values: [[50, "50 points"], [100, "100 points"], [200, "200 points"]] },
  { option: "scoring", values: [["winner"], ["penalty"]] },
  { option: "hand_size", values: [["by_seats"], [7, "Seven each"]] },
  { option: "aces", values: [["low"], ["low_or_high"]] },
  { option: "layoff", values: [["anytime"], ["after_meld"]] },
  { option: "melds_per_turn", values: [[0, "Any number"], [1, "One a turn"]] },
  { option: "go_out", values: [["any"], ["discard"]] },
  { option: "rummy_bonus", values: [["double"], ["none"]] },
  { option: "renewals", values: [[15], [1], [3]] },
];

const HOUSE_OPTIONS = new Set(HOUSE_RULES.map((rule) => rule.option));

/** Whether an option is one of the rule text's house rules (else it is under "More rules"). */
export const isHouseRule = (option) => HOUSE_OPTIONS.has(option);

/** A value's label: the one given, the option's own choice label, or the value itself. */
export function valueLabel(field, value, given) {
  if (given) return given;
  const found = (field.choices || []).find((choice) => choice.value === value);
  if (found) return found.label;
  if (value === null) return field.none || "No limit";
  if (typeof value === "boolean") return value ? "Yes" : "No";
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
  return host ? host.name : "Someone";
}

/** "Ada, Bo and Cy". */
export function names(list) {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;
}

/** The people who must mark ready before the start: everyone but the host, whose Start says it. */
const mustBeReady = (view) => people(view).filter((member) => member.id !== view.host);

/** Why the host cannot start yet, or null when they can. */
export function startProblem(view) {
  const seats = view.members.length;
  const min = view.min_seats || 2;
  const max = view.max_seats || 6;
  if (seats < min) return `A game needs at least ${min} players: share the link, or add a computer player.`;
  if (seats > max) return `A table holds at most ${max} players.`;
  const waiting = mustBeReady(view).filter((member) => !member.ready).map((member) => (member.id === view.me ? "you" : member.name));
  return waiting.length ? `Waiting for ${names(waiting)} to be ready.` : null;
}

/** The marks shown by a member's name. */
export function memberMarks(view, member) {
  const marks = [];
  if (member.id === view.me) marks.push("you");
  if (member.id === view.host) marks.push("host");
  if (member.kind === "bot") marks.push(`computer · ${member.level}`);
  else if (member.id !== view.host) marks.push(member.ready ? "ready" : "not ready");
  if (member.kind === "human" && !member.connected) marks.push("away");
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
    return cleared ? "You changed the rules, so everyone has to mark ready again." : null;
  }
  if (!was.ready || now.ready) return null;
  return "The host changed the rules: look them over and mark ready again.";
}

/** A code as typed ("ab-12 cd") as the party's code ("AB12CD"). */
export const cleanCode = (typed) => String(typed).replace(/[^A-Za-z0-9]/g, "").toUpperCase();

/** The code spaced for reading aloud: "AB12 CD" → "A B 1 2 C D". */
export const spelled = (code) => String(code).split("").join(" ");
