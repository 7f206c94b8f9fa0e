// The puzzles page (#/puzzles, #/puzzles/daily): a position from a real game as its player
// saw it, their legal choices as buttons; after an answer, right or wrong and why (the best
// choice and the move played in the game, worded as the review words them, and what that
// move gave away), a signed-in player's rating change, and the next puzzle. The server keeps
// the answer until one is sent. The lobby's line for the day's puzzle: puzzle_of_the_day.js.
import { answerPuzzle, getDailyPuzzle, getNextPuzzle, getPuzzleThemes } from "./api.js";
import { cardRow } from "./cards.js";
import { t } from "./i18n.js";
import { themeName } from "./puzzle_of_the_day.js";
import { actionText, points } from "./review/words.js";
import { fill, h, signed } from "./util.js";

/** The position's cards as the seat sees them: its hand, the others' counts, the melds, the
 * discard pile's top and the stock's size. */
function position(view, seat) {
  return [
    h("h3", {}, t("puzzles.hand")),
    h("div", { testid: "puzzle-hand" }, cardRow(view.hand, false)),
    h("ul", { class: "analysis-others" }, view.hand_sizes.map((count, other) => other === seat ? null
      : h("li", { testid: "puzzle-other" }, t("puzzles.others", { count })))),
    h("h3", {}, t("puzzles.melds")),
    view.melds.length
      ? h("ul", { testid: "puzzle-melds" }, view.melds.map((meld) => h("li", {}, cardRow(meld.cards))))
      : h("p", { class: "help" }, t("puzzles.no_melds")),
    h("h3", {}, t("puzzles.discard")),
    view.discard.length ? h("div", { testid: "puzzle-discard" }, cardRow(view.discard.slice(-8))) : h("p", { class: "help" }, t("puzzles.empty_pile")),
    h("p", { class: "help" }, t("puzzles.stock", { count: view.stock })),
  ];
}

/** Why, after an answer: the best choice, the move played in the game and what it cost. */
export function verdictLines(verdict, view) {
  const before = { discard: view.discard, melds: view.melds };
  const best = verdict.solutions.map((solution) => actionText(solution, before)).join(" / ");
  return [
    h("p", { testid: "puzzle-result", class: verdict.correct ? "puzzle-right" : "puzzle-wrong" },
      t(verdict.correct ? "puzzles.right" : "puzzles.wrong", { chosen: actionText(verdict.action, before) })),
    h("p", { testid: "puzzle-why" }, t("puzzles.why", {
      best,
      played: actionText(verdict.played, before),
      loss: points(verdict.loss),
    })),
  ];
}

/** A signed-in player's rating after an answer: moved, or not (a puzzle answered before). */
function ratingLine(change) {
  if (!change) return h("p", { class: "help", testid: "puzzle-guest" }, t("puzzles.guest"));
  const after = `${change.after}${change.provisional ? "?" : ""}`;
  if (!change.counted) return h("p", { testid: "puzzle-rating" }, t("puzzles.not_counted", { rating: after }));
  return h("p", { testid: "puzzle-rating" }, t("puzzles.rating", { rating: after, change: signed(change.after - change.before) }));
}

/** The page; `which` is "daily" for the day's puzzle. */
export function mountPuzzles(root, which, params = new URLSearchParams()) {
  document.title = t("puzzles.title");
  let generation = 0;
  let theme = params.get("theme") || "";
  const heading = h("h1", { tabindex: "-1", testid: "puzzle-heading" }, t("puzzles.heading"));
  const picker = h("select", { id: "puzzle-theme", testid: "puzzle-theme" }, h("option", { value: "" }, t("puzzles.any_theme")));
  const about = h("p", { class: "help", testid: "puzzle-about" });
  const table = h("div", { class: "analysis-table", testid: "puzzle-table" });
  const choices = h("div", { class: "row analysis-choices", testid: "puzzle-choices", role: "group", "aria-label": t("puzzles.choices") });
  const verdict = h("div", { class: "analysis-verdict", testid: "puzzle-verdict", "aria-live": "polite" });
  const next = h("button", { type: "button", testid: "puzzle-next", onclick: () => load(false) }, t("puzzles.next"));
  root.append(h("section", { class: "panel puzzles", testid: "puzzles" },
    heading,
    h("p", { class: "help" }, t("puzzles.intro")),
    h("div", { class: "field" }, h("label", { for: "puzzle-theme" }, t("puzzles.theme_label")), picker),
    about, table,
    h("h3", {}, t("puzzles.choices")),
    choices, verdict,
    h("div", { class: "row" }, next)));
  picker.addEventListener("change", () => {
    theme = picker.value;
    load(false);
  });
  getPuzzleThemes().then((answer) => {
    for (const found of answer.themes) {
      picker.append(h("option", { value: found.theme }, `${themeName(found.theme)} (${found.count})`));
    }
    picker.value = theme;
  }).catch(() => {});

  function failed(problem) {
    fill(verdict, h("p", { class: "error", role: "alert", testid: "puzzle-error" }, t("puzzles.failed", { problem: problem.message || String(problem) })));
  }

  function load(daily) {
    const mine = ++generation;
    fill(verdict);
    fill(choices); // the last puzzle's answered choices go at once, not when the next comes
    (daily ? getDailyPuzzle() : getNextPuzzle(theme)).then((puzzle) => {
      if (mine === generation) show(puzzle, mine);
    }).catch((problem) => {
      if (mine === generation) failed(problem);
    });
  }

  function show(puzzle, mine) {
    const { view, seat } = puzzle;
    const before = { discard: view.discard, melds: view.melds };
    fill(about, t(puzzle.date ? "puzzles.daily_about" : "puzzles.about", {
      theme: themeName(puzzle.theme), rating: puzzle.rating, date: puzzle.date || "",
    }));
    fill(table, ...position(view, seat));
    fill(choices, view.legal.map((legal) => h("button", {
      type: "button", testid: "puzzle-choice", "data-action": legal,
      onclick: () => answer(puzzle, `${seat} ${legal}`, mine),
    }, actionText(`${seat} ${legal}`, before))));
    heading.focus();
  }

  function answer(puzzle, action, mine) {
    for (const button of choices.querySelectorAll("button")) button.disabled = true;
    answerPuzzle(puzzle.id, action).then((found) => {
      if (mine !== generation) return;
      fill(verdict, ...verdictLines(found, puzzle.view), ratingLine(found.rating));
      next.focus();
    }).catch((problem) => {
      if (mine !== generation) return;
      for (const button of choices.querySelectorAll("button")) button.disabled = false;
      failed(problem);
    });
  }

  load(which === "daily");
  return () => {
    generation += 1;
  };
}
