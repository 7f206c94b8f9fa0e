// The ratings pages' words and numbers in the page's language (leaderboard.js, player.js):
// places ("1st of 3", "=1st of 3"), rating changes (+12, −8), a player's figures with "—"
// for what the server does not say. No DOM here: Node's tests import it as it is.
import { lang, t } from "../i18n.js";
import { POOLS } from "../protocol.js";

/** The pools, in the order the pages show them (the server's order). */
export { POOLS };

/** What "—" stands for: a figure the server did not give (null, or not sent at all). */
const missing = (value) => value === null || value === undefined || Number.isNaN(value);

/** "1st", "2nd", "3rd", "11th" / "1位": the language's ordinal form of `n`. */
export function ordinal(n, code = lang()) {
  const form = new Intl.PluralRules(code, { type: "ordinal" }).select(n);
  return t(`ratings.ordinal_${form}`, { n }, code);
}

/** A finishing place from the server's `rank` (0 best) among `seats`: "1st of 3"; a place
 * shared with another player (`tied`) is "=1st of 3". */
export function placeText(rank, seats, tied, code = lang()) {
  return t(tied ? "ratings.place_tied" : "ratings.place", { place: ordinal(rank + 1, code), seats }, code);
}

/** A rating's change: "+12", "−8" (a minus sign, not a hyphen), "±0". */
export function changeText(before, after) {
  const change = after - before;
  if (change === 0) return "±0";
  return change > 0 ? `+${change}` : `−${-change}`;
}

/** A rating as shown: "1543", "1543?" while provisional. */
export const ratingText = (rating, provisional) => `${rating}${provisional ? t("ratings.provisional_mark") : ""}`;

/** A rating's pool in words: "Winner scoring". */
export const poolName = (pool) => t(`ratings.pool_${pool}`);

/** A day from seconds since the epoch, in the page's language. */
export function dateText(at, code = lang()) {
  return new Intl.DateTimeFormat(code, { dateStyle: "medium" }).format(new Date(at * 1000));
}

const decimal = (value, digits, code) =>
  new Intl.NumberFormat(code, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);

const FORMATS = {
  count: (value, code) => new Intl.NumberFormat(code).format(value),
  decimal: (value, code) => decimal(value, 1, code),
  share: (value, code) => new Intl.NumberFormat(code, { style: "percent", maximumFractionDigits: 0 }).format(value),
  seconds: (value, code) => t("ratings.seconds", { seconds: decimal(value, 1, code) }, code),
};

/** A share (0 to 1) as a whole percent in the page's language: "25%". */
export const shareText = (value, code = lang()) => FORMATS.share(value, code);

/** What a game counts, as the server's thresholds answer says it (no number of our own). */
export function countingText(found, code = lang()) {
  const count = (value) => FORMATS.count(value, code);
  return t("ratings.counting", { games: count(found.trusted_games), opponents: count(found.trusted_opponents), days: count(found.repeat_days) }, code);
}

/** A player's figures in one pool, in the order shown, each the record's field and how it
 * reads. The server adds fields over time: one it does not send yet shows "—". */
export const FIGURES = [
  ["games", "count"],
  ["deals", "count"],
  ["wins", "count"],
  ["draws", "count"],
  ["losses", "count"],
  ["average_place", "decimal"],
  ["points_per_deal", "decimal"],
  ["going_out_rate", "share"],
  ["rummies", "count"],
  ["seconds_per_turn", "seconds"],
  ["timeouts", "count"],
  ["computer_share", "share"],
];

/** The figures of a pool record as [field, label, value] in the page's language. */
export function figures(record, code = lang()) {
  return FIGURES.map(([field, kind]) => {
    const value = record[field];
    const text = missing(value) ? t("ratings.missing", {}, code) : FORMATS[kind](value, code);
    return [field, t(`ratings.${field}`, {}, code), text];
  });
}
