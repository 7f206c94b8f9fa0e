// A post-game review in the page's language: the marks' names and meanings (their English
// generated from Python, review/words.py), actions worded as the table's hints word them
// (advice: "Discard the 7♥"), a loss with its interval, and the line a replay step shows for
// a reviewed decision. No DOM here.
import { lang, t } from "../i18n.js";
import { sentence } from "../table/event_words.js";
import { refusalText } from "../table/refusal_words.js";
import { actionWords, isBest } from "./model.js";

/** A mark's name: "Blunder". */
export const markName = (mark) => t(`review.mark.${mark}`);

/** A mark's short sign, beside its name (never in its place): as chess annotates moves. */
export const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** What a mark means, with its threshold from the review's `marks` ("at least 5 points"). */
export function markMeaning(mark, marks) {
  return t(`review.meaning.${mark}`, { points: points(marks[mark]) });
}

/** A number of points as the review shows them: one decimal at most ("4.8", "12"). */
export function points(value) {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 1 }).format(Number(value) || 0);
}

/** A number of points always with its decimal ("4.8", "0.0"): a loss and its interval line
 * up in a list. */
const exact = (value) => new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Number(value) || 0);

/** A loss with its 95% interval: "4.8 ± 3.8 points"; a settled decision's says so (its mark
 * is on the whole loss): "18.9 ± 2.9 points, settled within the turn", or with no interval
 * left (both sides settled) "15.0 points, counted exactly". */
export function lossText(decision) {
  if (decision.exact && !Number(decision.loss_ci95)) return t("replay.review_loss_exact", { loss: exact(decision.loss) });
  const key = decision.exact ? "replay.review_loss_settled" : "replay.review_loss";
  return t(key, { loss: exact(decision.loss), interval: exact(decision.loss_ci95) });
}

/**
 * An action in record notation worded as advice in the page's language ("Discard the 7♥",
 * "Take the 9♣ from the discard pile", "Lay off the 8♠ on 6♠ 7♠"), its cards read from
 * `before` (the frame it was chosen in); the notation itself when it cannot be read.
 */
export function actionText(notation, before) {
  const words = actionWords(notation, before);
  if (!words) return String(notation || "");
  if (words.kind === "layoff" && words.params.meld) {
    return sentence("replay.review_layoff", null, { card: words.params.card, meld: words.params.meld });
  }
  return sentence(`hints.${words.kind}`, null, words.params);
}

/** The line of a reviewed decision's step: what `name` played, the best found and its cost,
 * or that it was the best found. */
export function judgementText(decision, before, name) {
  const played = actionText(decision.played, before);
  if (isBest(decision)) return t("replay.review_line_best", { name, played });
  return t("replay.review_line", { name, played, best: actionText(decision.best, before), loss: lossText(decision) });
}

/** A marked decision in the review's list: "Deal 2: Discard the 7♥. Better: Meld 3♣ 4♣ 5♣
 * (6.2 ± 1.1 points)". */
export function itemText(decision, before) {
  return t("replay.review_item", {
    deal: decision.deal + 1,
    played: actionText(decision.played, before),
    best: actionText(decision.best, before),
    loss: lossText(decision),
  });
}

/** Where a review stands, in words: "Finding the decisions…", "Judging decision 3 of 40…". */
export function progressText(answer) {
  if (!answer || !Number.isInteger(answer.total)) return t("replay.review_finding");
  return t("replay.review_judging", { done: Math.min(answer.done || 0, answer.total), total: answer.total });
}

/** A review that failed ({state: "failed", error, reason, params}) as a sentence for the
 * player: its reason worded, else the server's English. */
export function failedText(answer) {
  if (answer.reason) return refusalText(null, answer);
  return t("replay.review_failed", { problem: answer.error || "" });
}

/** A failed request for a review as a sentence for the player: the answer's reason worded
 * (the reviews busy, the client's own share of them), else by its status where the page knows
 * it, else the server's or the browser's own sentence. */
export function problemText(problem) {
  const status = problem && problem.status;
  const body = problem && problem.body;
  if (body && body.reason) return refusalText(null, body);
  if (status === 503) return t("refusals.reviews_busy");
  if (status === 404 || status === 403) return t("replay.review_not_allowed");
  return t("replay.review_failed", { problem: (problem && problem.message) || String(problem) });
}
