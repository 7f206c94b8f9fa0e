// The analysis board ("Try a move"): at one of a seat's decisions in a finished game, play any
// of its legal choices and see what it is worth against the best found, then play on against
// the computer. The server plays every move in a world where the cards the seat could not see
// are dealt afresh, and answers only what the seat sees there: its hand, what lies face up,
// how many cards the others hold. Nothing is kept on the server: the page holds the moves.
import { tryMoves } from "../api.js";
import { cardRow } from "../cards.js";
import { t } from "../i18n.js";
import { h, fill } from "../util.js";
import { actionText, points, problemText } from "./words.js";

/** A move of the line worded, its taken cards standing for the pile it was taken from. */
const lineText = (move) => actionText(move.action, { discard: move.taken || [] });

/** The judgement of the last move in plain words: its value against the best found. A take
 * from the pile is worded with the cards the line says it took (the pile has moved on). */
export function judgedText(judged, view, line) {
  const made = [...line].reverse().find((move) => move.action === judged.played);
  const before = { discard: made && made.taken.length ? made.taken : view.discard, melds: view.melds };
  const played = actionText(judged.played, before);
  if (judged.played === judged.best || judged.loss <= 0) {
    return t("analysis.best", { played, value: points(judged.value) });
  }
  return t("analysis.worse", {
    played,
    value: points(judged.value),
    best: actionText(judged.best, before),
    best_value: points(judged.best_value),
    loss: points(judged.loss),
    interval: points(judged.loss_ci95),
  });
}

/**
 * The board for `seat`'s decision at (`deal`, `action`) of game `gameId`. `players` are the
 * game's names; `onBack()` closes it. Returns `{element, open()}`: `open` asks for the step.
 */
export function analysisBoard({ gameId, token, seat, deal, action, players, onBack }) {
  let moves = [];
  let generation = 0;
  const name = players[seat] ?? "";
  const heading = h("h2", { tabindex: "-1", testid: "analysis-heading" }, t("analysis.heading", { name }));
  const table = h("div", { class: "analysis-table", testid: "analysis-table" });
  const verdict = h("div", { class: "analysis-verdict", testid: "analysis-verdict", "aria-live": "polite" });
  const choices = h("div", { class: "row analysis-choices", testid: "analysis-choices", role: "group", "aria-label": t("analysis.choices") });
  const undo = h("button", { type: "button", testid: "analysis-undo", onclick: () => ask(moves.slice(0, -1)) }, t("analysis.undo"));
  const playOn = h("button", { type: "button", testid: "analysis-play-on", onclick: () => ask([...moves, "computer"]) }, t("analysis.play_on"));
  const back = h("button", { type: "button", class: "ghost", testid: "analysis-back", onclick: () => onBack() }, t("analysis.back"));
  const element = h("section", { class: "analysis panel", testid: "analysis", "aria-labelledby": "analysis-heading" },
    heading,
    h("p", { class: "help" }, t("analysis.intro", { name })),
    table,
    h("h3", {}, t("analysis.choices")),
    choices,
    verdict,
    h("div", { class: "replay-controls" }, undo, playOn, back));
  heading.id = "analysis-heading";

  function ask(wanted) {
    const mine = ++generation;
    for (const button of element.querySelectorAll("button")) if (button !== back) button.disabled = true;
    fill(verdict, h("p", { class: "help", testid: "analysis-waiting" }, t("analysis.waiting")));
    tryMoves(gameId, { seat, deal, action, moves: wanted }, token)
      .then((answer) => {
        if (mine !== generation) return;
        moves = answer.moves;
        show(answer);
      })
      .catch((problem) => {
        if (mine !== generation) return;
        fill(verdict, h("p", { class: "error", role: "alert", testid: "analysis-error" }, t("analysis.failed", { problem: problemText(problem) })));
        undo.disabled = !moves.length;
      });
  }

  function show(answer) {
    const view = answer.view;
    const before = { discard: view.discard, melds: view.melds };
    fill(table,
      h("h3", {}, t("analysis.hand", { name })),
      h("div", { testid: "analysis-hand" }, cardRow(view.hand, false)),
      h("ul", { class: "analysis-others" }, view.hand_sizes.map((count, other) => other === seat ? null
        : h("li", { testid: "analysis-other" }, t("analysis.others", { name: players[other] ?? "", count })))),
      h("h3", {}, t("analysis.melds")),
      view.melds.length
        ? h("ul", { testid: "analysis-melds" }, view.melds.map((meld) => h("li", {}, `${players[meld.owner] ?? ""}: `, cardRow(meld.cards))))
        : h("p", { class: "help" }, t("analysis.no_melds")),
      h("h3", {}, t("analysis.discard")),
      view.discard.length ? h("div", { testid: "analysis-discard" }, cardRow(view.discard.slice(-8))) : h("p", { class: "help" }, t("analysis.empty_pile")),
      h("p", { class: "help" }, t("analysis.stock", { count: view.stock })));
    const mine = view.turn === seat && view.phase !== "over";
    fill(choices, mine ? view.legal.map((legal) =>
      h("button", { type: "button", testid: "analysis-choice", "data-action": legal, onclick: () => ask([...moves, legal]) }, actionText(legal, before))) : null);
    const since = lastLine(answer);
    fill(verdict,
      answer.judgement ? h("p", { testid: "analysis-judgement" }, judgedText(answer.judgement, view, answer.line)) : null,
      answer.judgement ? h("p", { class: "help", testid: "analysis-samples" }, t("analysis.samples", { count: answer.judgement.samples })) : null,
      since.length ? h("p", { class: "help", testid: "analysis-line" }, t("analysis.computer_played", { moves: since.map(lineText).join("; ") })) : null,
      view.deal_points ? h("p", { testid: "analysis-deal-over" }, t("analysis.deal_over", {
        points: view.deal_points.map((score, who) => `${players[who] ?? ""} ${score}`).join(", "),
      })) : null);
    undo.disabled = !moves.length;
    playOn.disabled = !mine;
  }

  /** The other seats' moves after the seat's last one: what the computer answered. */
  function lastLine(answer) {
    const found = [];
    for (let index = answer.line.length - 1; index >= 0; index -= 1) {
      const move = answer.line[index];
      if (move.action.split(" ")[0] === String(seat)) break;
      found.unshift(move);
    }
    return found;
  }

  function open() {
    ask([]);
    heading.focus();
  }

  return { element, open };
}
