// Drawing the end of a deal and of the game: the deal's summary dialog (every hand, its
// cost and the points scored) and the game-over notice.
import { cardRow } from "../cards.js";
import { h, fill } from "../util.js";
import { changed } from "./state.js";
import { gameOverText, resultText, watching, who } from "./texts.js";

function summaryTitle(view) {
  const result = view.deal_result.result;
  return result === "blocked" ? "Blocked deal" : result === "rummy" ? "Rummy!" : `Deal ${view.deal + 1} is over`;
}

export function renderSummary(table) {
  const { state, parts, intents } = table;
  const view = state.view;
  const summary = parts.summary;
  if (!(view.phase === "over" && view.deal_result)) {
    if (summary.open) summary.close();
    return;
  }
  const r = view.deal_result;
  const rows = view.players.map((_, seat) =>
    h("tr", { class: r.winner === seat ? "winner" : "" },
      h("th", { scope: "row" }, who(view, seat)),
      h("td", { class: "summary-hand" }, r.hands[seat].length ? cardRow(r.hands[seat]) : h("span", { class: "help" }, "no cards")),
      h("td", {}, String(r.values[seat])),
      h("td", {}, r.points[seat] ? `+${r.points[seat]}` : "0"),
      h("td", {}, h("b", {}, String(view.scores[seat])))));
  const heading = (text) => h("th", { scope: "col" }, text);
  const next = h("button", { type: "button", class: "primary", testid: "next-deal", "aria-keyshortcuts": "N", onclick: intents.nextDeal }, "Next deal ", h("kbd", {}, "N"));
  fill(summary,
    h("h2", { id: "summary-title" }, summaryTitle(view)),
    h("p", { class: "result-text" }, resultText(view)),
    h("div", { class: "table-scroll" },
      h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, heading("Player"), heading("Cards left"), heading("In hand"), heading("This deal"), heading("Total"))),
        h("tbody", {}, rows))),
    view.game_over ? parts.gameOver : null,
    h("div", { class: "row" },
      view.game_over || watching(view) ? null : next,
      h("button", { type: "button", class: "ghost", onclick: intents.hideSummary }, "Look at the table")));
  if (state.summaryClosed !== view.deal && !summary.open) {
    summary.showModal();
    const focusTarget = summary.querySelector("[data-testid=next-deal]") || summary.querySelector(".button");
    if (focusTarget) focusTarget.focus();
  }
  // One game-over notice: in the summary while it is open, else on the table.
  if (view.game_over && !summary.open) parts.overSlot.append(parts.gameOver);
}

/** What comes after a game: a party plays again (the first press makes the rematch, the
 * others join it), a spectator may watch the rematch, anyone else starts a new game. */
function afterGame(table) {
  const { state, parts, intents } = table;
  const view = state.view;
  const close = () => parts.summary.open && parts.summary.close();
  const lobby = (text) => h("a", { class: `button${view.party ? " ghost" : " primary"}`, href: "#/", onclick: close }, text);
  if (watching(view)) {
    return view.next_table
      ? h("a", { class: "button primary", testid: "watch-rematch", href: `#/watch/${encodeURIComponent(view.next_table)}`, onclick: close }, "Watch the rematch")
      : lobby("To the lobby");
  }
  if (!view.party) return lobby("New game");
  const mine = view.players[view.seat];
  if (mine && mine.left) return lobby("To the lobby");
  return [
    h("button", { type: "button", class: "primary", testid: "rematch", onclick: intents.rematch }, view.next_table ? "Join the rematch" : "Rematch"),
    lobby("To the lobby"),
  ];
}

export function renderGameOver(table) {
  const { state, parts } = table;
  const view = state.view;
  if (!view.game_over) {
    parts.gameOver.remove();
    return;
  }
  if (!changed(state, "gameOver", state.version, view.scores, view.winner, view.next_table, view.seat, view.party)) return;
  fill(parts.gameOver,
    h("h3", {}, "Game over"),
    h("p", {}, gameOverText(view)),
    h("div", { class: "row" }, afterGame(table)));
}
