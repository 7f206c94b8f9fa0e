// The replay viewer's post-game review (#/replay/ID?review=SEAT): choose a seat, ask the
// server for its review and follow it with a progress bar, then a summary of the marks and
// points given away, the list of marked decisions (each moves the replay there), and at each
// step that was one of the seat's decisions, what was played against the best found, and
// "Try a move" there (review/analysis.js: the analysis board).
// Loaded with the replay viewer only (replay.js imports it; the router loads that on demand).
import { getReview, startReview } from "./api.js";
import { t } from "./i18n.js";
import { MARKS, POLL_MS, decisionsByStep, defaultSeat, markedSteps, nextMarked, previousMarked, progressOf, stepAction } from "./review/model.js";
import { MARK_SIGNS, failedText, itemText, judgementText, markMeaning, markName, points, problemText, progressText } from "./review/words.js";
import { analysisBoard } from "./review/analysis.js";
import { h, fill } from "./util.js";

/** A mark as a badge: its sign and its name, on its own colour (never the colour alone). */
export function markBadge(mark) {
  return h("span", { class: `review-mark review-mark-${mark}`, testid: "mark-badge", "data-mark": mark },
    h("span", { "aria-hidden": "true" }, MARK_SIGNS[mark]), " ", markName(mark));
}

/**
 * The review panel of a replay. `go(step)` moves the replay; `wanted` is the seat the address
 * asks for (null: none), `autoStart` whether to ask for the review at once. Returns the panel
 * (`element`), the judgement line to put under the step's words (`line`), the analysis
 * board's place under it (`board`), and
 * `setGame({frames, players, starts, heldSeat})` once the game has loaded, `show(at)` at each
 * step, `key(event)` (true when it used the key) and `stop()` when the view is left.
 */
export function reviewPanel({ gameId, token, go, wanted, autoStart }) {
  let frames = [];
  let players = [];
  let starts = [];
  let seat = 0;
  let at = 0;
  let generation = 0; // a newer request (or leaving the view) makes older answers stale
  let timer = 0;
  let review = null;
  let byStep = new Map();
  let marked = [];

  const seatSelect = h("select", { id: "review-seat", testid: "review-seat", disabled: true });
  seatSelect.addEventListener("change", () => {
    seat = Number(seatSelect.value);
    if (!review) show(at); // the steps that may be tried are the chosen seat's
  });
  const startButton = h("button", { type: "button", class: "primary", testid: "review-start", disabled: true, onclick: () => start() }, t("replay.review_button"));
  // not a live region: a screen reader would read the count out every second (the bar says
  // where it stands when asked; a failure is an alert, the finished review a new heading)
  const status = h("div", { class: "review-status", testid: "review-status" });
  const results = h("div", { class: "review-results", testid: "review-results" });
  const line = h("p", { class: "review-line", testid: "review-line", "aria-live": "polite", hidden: true });
  const prevMark = h("button", { type: "button", class: "ghost", testid: "review-prev-mark", "aria-keyshortcuts": "P", onclick: () => goMark(-1) }, t("replay.review_prev_mark"));
  const nextMark = h("button", { type: "button", class: "ghost", testid: "review-next-mark", "aria-keyshortcuts": "N", onclick: () => goMark(1) }, t("replay.review_next_mark"));
  // "Try a move" at a decision of the seat, and the analysis board once it is pressed
  const board = h("div", { class: "review-board", testid: "review-board", hidden: true });
  let boardAt = null;
  const element = h("section", { class: "review", testid: "review", "aria-label": t("replay.review_button") },
    h("p", { class: "help" }, t("replay.review_intro")),
    h("div", { class: "replay-controls" },
      h("span", { class: "field" }, h("label", { for: "review-seat" }, t("replay.review_seat")), seatSelect),
      startButton),
    status,
    results);

  function stopPolling() {
    clearTimeout(timer);
    timer = 0;
  }

  /** Say where the review stands: a bar with done/total, or without a value (indeterminate)
   * while the decisions are being found. */
  function showProgress(answer) {
    const { value, max } = progressOf(answer);
    const bar = h("progress", { testid: "review-progress", "aria-label": t("replay.review_progress_label") });
    if (value !== null) {
      bar.max = max;
      bar.value = value;
    }
    fill(status, bar, " ", h("span", { class: "help", testid: "review-progress-text" }, progressText(answer)));
  }

  function showProblem(text) {
    stopPolling();
    startButton.disabled = false;
    seatSelect.disabled = false;
    fill(status, h("p", { class: "error", role: "alert", testid: "review-error" }, text));
  }

  function start() {
    const mine = ++generation;
    stopPolling();
    review = null;
    byStep = new Map();
    marked = [];
    fill(results);
    show(at);
    startButton.disabled = true;
    seatSelect.disabled = true;
    showProgress(null);
    // the address says whose review this is, so a reload or a change of language keeps it
    const here = `#/replay/${encodeURIComponent(gameId)}?review=${seat}`;
    if (location.hash !== here) history.replaceState(history.state, "", here);
    ask(mine, true);
  }

  /** One request: POST to start it (again, after a restart lost it), else GET to follow. */
  function ask(mine, post) {
    (post ? startReview : getReview)(gameId, seat, token)
      .then((answer) => answered(answer, mine))
      .catch((problem) => {
        if (mine === generation) showProblem(problemText(problem));
      });
  }

  function answered(answer, mine) {
    if (mine !== generation) return; // the seat changed or the view was left meanwhile
    if (answer.state === "done" && answer.review) return finished(answer.review);
    if (answer.state === "failed") return showProblem(failedText(answer));
    showProgress(answer);
    timer = setTimeout(() => ask(mine, answer.state === "none"), POLL_MS);
  }

  function finished(made) {
    stopPolling();
    review = made;
    byStep = decisionsByStep(made, starts, frames.length);
    marked = markedSteps(byStep);
    startButton.disabled = false;
    seatSelect.disabled = false;
    fill(status);
    const lost = !document.activeElement || document.activeElement === document.body;
    renderResults();
    show(at);
    // the button pressed was disabled while the review ran, which dropped the focus: give it
    // to the review's heading (never taken from where the player has since gone)
    if (lost) results.querySelector("h2")?.focus();
  }

  function renderResults() {
    if (!review) return fill(results);
    const summary = review.summary || {};
    const name = players[review.seat] ?? review.player ?? "";
    const thresholds = review.marks || {};
    const entries = [...byStep.entries()].filter(([, decision]) => decision.mark).sort(([a], [b]) => a - b);
    fill(results,
      h("h2", { testid: "review-heading", tabindex: "-1" }, t("replay.review_heading", { name })),
      h("div", { class: "review-summary", testid: "review-summary" },
        h("p", {}, t("replay.review_decisions", { count: summary.decisions ?? 0 })),
        h("ul", { class: "review-counts" }, MARKS.map((mark) =>
          h("li", { testid: `review-count-${mark}`, "data-count": String(summary[mark] ?? 0) },
            markBadge(mark), " ", h("strong", {}, String(summary[mark] ?? 0))))),
        h("p", { testid: "review-lost" }, t("replay.review_lost", {
          points: points(summary.points_lost),
          deals: t("common.deals", { count: summary.deals ?? 0 }),
          per_deal: points(summary.points_lost_per_deal),
        }))),
      h("h3", {}, t("replay.review_marks_heading")),
      h("ul", { class: "review-legend", testid: "review-legend" }, MARKS.map((mark) =>
        h("li", {}, markBadge(mark), " ", t("replay.review_mark_meaning", { meaning: markMeaning(mark, thresholds) })))),
      h("details", { class: "review-how", testid: "review-how" },
        h("summary", {}, t("replay.review_how")),
        h("p", {}, t("review.how_it_works"))),
      h("h3", {}, t("replay.review_list_heading")),
      entries.length
        ? [
          h("div", { class: "replay-controls" }, prevMark, nextMark),
          h("ol", { class: "review-list", testid: "review-list" }, entries.map(([step, decision]) =>
            h("li", {},
              h("button", { type: "button", class: "review-item", testid: "review-item", "data-step": String(step), onclick: () => goAndShow(step) },
                markBadge(decision.mark), " ", itemText(decision, frames[step - 1]))))),
          h("p", { class: "help" }, t("replay.review_keys")),
        ]
        : h("p", { class: "help", testid: "review-none-marked" }, t("replay.review_none_marked")));
  }

  /** Move the replay to a listed decision, its judgement brought into view (on a phone the
   * list can be taller than the screen). */
  function goAndShow(step) {
    go(step);
    if (!line.hidden) line.scrollIntoView({ block: "nearest" });
  }

  function goMark(direction) {
    const target = direction < 0 ? previousMarked(marked, at) : nextMarked(marked, at);
    if (target !== null) go(target);
  }

  /** The replay is at step `step`: its judgement, if it was one of the seat's decisions. */
  function show(step) {
    at = step;
    prevMark.disabled = previousMarked(marked, at) === null;
    nextMark.disabled = nextMarked(marked, at) === null;
    for (const item of results.querySelectorAll("[data-testid=review-item]")) {
      if (Number(item.dataset.step) === at) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
    const decision = review ? byStep.get(at) : null;
    // without a review, every step of the chosen seat's own may be tried
    showBoard(decision ?? (review ? null : ownStep(at)));
    if (!decision) {
      line.hidden = true;
      line.replaceChildren();
      delete line.dataset.mark;
      return;
    }
    const name = players[review.seat] ?? review.player ?? "";
    line.hidden = false;
    if (decision.mark) line.dataset.mark = decision.mark;
    else delete line.dataset.mark;
    fill(line, decision.mark ? [markBadge(decision.mark), " "] : null, judgementText(decision, frames[at - 1], name));
  }

  /** The chosen seat's action at step `at` ({deal, action, seat}), or null. */
  function ownStep(index) {
    const place = frames.length ? stepAction(starts, frames, index) : null;
    return place && place.seat === seat ? place : null;
  }

  /** The "Try a move" button at a decision's step (the board stays open at its own step). */
  function showBoard(decision) {
    if (boardAt !== null && boardAt === at) return;
    boardAt = null;
    board.hidden = !decision;
    if (!decision) return fill(board);
    const tryButton = h("button", { type: "button", testid: "analysis-try", onclick: () => openBoard(decision) }, t("analysis.try"));
    fill(board, h("div", { class: "replay-controls" }, tryButton));
  }

  /** Open the board at the position the decision was made in (the step before its own). */
  function openBoard(decision) {
    boardAt = at;
    const opened = analysisBoard({
      gameId, token, players, seat: review ? review.seat : decision.seat, deal: decision.deal, action: decision.action,
      onBack: () => {
        boardAt = null;
        showBoard(decision);
        board.querySelector("button")?.focus();
      },
    });
    fill(board, opened.element);
    opened.open();
  }

  function setGame(game) {
    ({ frames, players, starts } = game);
    seat = defaultSeat(players.length, wanted, game.heldSeat);
    fill(seatSelect, players.map((player, index) =>
      h("option", { value: String(index), selected: index === seat }, t("replay.review_seat_option", { name: player, seat: index + 1 }))));
    seatSelect.value = String(seat);
    seatSelect.disabled = false;
    startButton.disabled = false;
    if (autoStart) start();
  }

  /** N and P: the next and the previous marked decision, once there is a review. */
  function key(event) {
    if (!review || !marked.length) return false;
    const keyName = event.key.toLowerCase();
    if (keyName === "n") goMark(1);
    else if (keyName === "p") goMark(-1);
    else return false;
    return true;
  }

  function stop() {
    generation += 1;
    stopPolling();
  }

  return { element, line, board, setGame, show, key, stop };
}
