// The rule options' words in the page's language, for the lobby's and the party's rule forms.
// /api/options sends the options' English (titles, help, choice labels, preset summaries,
// ties); the catalogue area `rules` holds the same words by key (generated from the same
// Python source, with a Japanese catalogue written by hand). Each function takes the key's
// words when the catalogue has them, else the server's English. No DOM: Node tests import it.
import { has, t } from "./i18n.js";

/** A rule value as it appears in a catalogue key: "low", "15", "true", "null". */
export const valueKey = (value) => (typeof value === "string" ? value : JSON.stringify(value));

/** The first of `keys` the catalogue has, in the page's language; else `fallback`. */
function first(keys, fallback) {
  const key = keys.find((candidate) => has(candidate, "en"));
  return key ? t(key) : fallback;
}

/** An option's title. */
export const ruleTitle = (field) => first([`rules.option.${field.name}`], field.title);

/** An option's help, the preset's own when it has one. */
export const ruleHelp = (field, preset) => first([`rules.offer_help.${preset}.${field.name}`, `rules.help.${field.name}`], field.help);

/** What players read for an option's value under a preset: the preset's own label (its
 * offer's, its house rule's), the option's (what null means among them), yes or no, or the
 * number itself. The one value-label function of the page. */
export function ruleValueText(preset, name, value) {
  const key = valueKey(value);
  const found = [`rules.offer.${preset}.${name}.${key}`, `rules.value.${name}.${key}`].find((candidate) => has(candidate, "en"));
  if (found) return t(found);
  if (typeof value === "boolean") return t(value ? "common.yes" : "common.no");
  if (value === null) return t("common.none");
  return String(value);
}

/** What no value means for an option ("No limit"). */
export const ruleNone = (field) => first([`rules.value.${field.name}.null`], field.none);

/** A preset's name as the page shows it (its name in the page's language). */
export const presetName = (name) => first([`rules.preset_name.${name}`], name);

/** A preset's summary. */
export const presetSummary = (name, info) => first([`rules.preset.${name}`], info.summary);

/** Why a preset ties an option (the follower) to another. */
export const tieReason = (preset, tie) => first([`rules.tie.${preset}.${tie.follower}`], tie.reason);

/** A field of /api/options' form with its words in the page's language (title, help, what
 * no value means, each choice's label), for a form that then reads it as it is. */
export function localField(field, preset) {
  return {
    ...field,
    title: ruleTitle(field),
    help: ruleHelp(field, preset),
    none: field.none === null || field.none === undefined ? field.none : ruleNone(field),
    choices: (field.choices || []).map((choice) => ({ ...choice, label: ruleValueText(preset, field.name, choice.value) })),
  };
}
