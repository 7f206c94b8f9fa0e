// Drawing the end of a deal and of the game: the deal's summary dialog (every hand, its
// cost and the points scored) and the game-over notice.
import { cardRow } from "../cards.js";
import { t } from "../i18n.js";
import { h, fill, number, signed, store, arenaKey } from "../util.js";
import { meldPoints } from "./board.js";
import { changed } from "./state.js";
import { gameOverText, resultText, waitingForOthers, watching, who } from "./texts.js";
import { nextDealLeft, nextWaitText } from "./timer.js";

function summaryTitle(view) {
  const result = view.deal_result.result;
  if (result === "blocked") return t("words.title_blocked");
  if (result === "knock" || result === "undercut") return t("words.title_knock", { deal: view.deal + 1 });
  return result === "rummy" ? t("words.title_rummy") : t("words.title_over", { deal: view.deal + 1 });
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
  const laid = meldPoints(view);
  const rows = view.players.map((_, seat) =>
    h("tr", { class: r.winner === seat ? "winner" : "" },
      h("th", { scope: "row" }, who(view, seat)),
      r.laid_out ? laidOutCell(r.laid_out[seat], seat === r.knocker) :
      h("td", { class: "summary-hand" }, r.hands[seat].length ? cardRow(r.hands[seat]) : h("span", { class: "help" }, t("words.no_cards"))),
      h("td", {}, number(r.values[seat])),
      laid ? h("td", { testid: "summary-laid" }, number(view.table_points[seat])) : null,
      h("td", { testid: "summary-points" }, signed(r.points[seat])),
      h("td", {}, h("b", {}, number(view.scores[seat])))));
  const heading = (text) => h("th", { scope: "col" }, text);
  // at a party the next deal waits for everyone: a press says you are ready (timer.js counts
  // down the wait under the buttons)
  const ready = waitingForOthers(view);
  const next = ready
    ? h("button", { type: "button", class: "primary", testid: "next-deal", "data-waiting": "true", disabled: true }, t("words.next_waiting"))
    : h("button", { type: "button", class: "primary", testid: "next-deal", "aria-keyshortcuts": "N", onclick: intents.nextDeal }, t("words.next_deal"), " ", h("kbd", {}, "N"));
  const wait = view.game_over ? "" : nextWaitText(view, nextDealLeft(state));
  fill(summary,
    h("h2", { id: "summary-title" }, summaryTitle(view)),
    h("p", { class: "result-text" }, resultText(view)),
    h("div", { class: "table-scroll" },
      h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, heading(t("words.player_col")),
          heading(t(r.laid_out ? "words.laid_out" : "words.cards_left")),
          heading(t(r.laid_out ? "words.loose_points" : "words.in_hand")),
          laid ? heading(t("words.laid_col")) : null,
          heading(t("words.this_deal")), heading(t("words.total")))),
        h("tbody", {}, rows))),
    view.game_over ? parts.gameOver : null,
    h("p", { class: "next-wait", testid: "next-wait", hidden: !wait }, wait),
    h("div", { class: "row" },
      view.game_over || watching(view) ? null : next,
      h("button", { type: "button", class: "ghost", onclick: intents.hideSummary }, t("words.look_at_table"))));
  if (state.summaryClosed !== view.deal && !summary.open) {
    summary.showModal();
    const focusTarget = summary.querySelector("[data-testid=next-deal]") || summary.querySelector(".button");
    if (focusTarget) focusTarget.focus();
  }
  // One game-over notice: in the summary while it is open, else on the table.
  if (view.game_over && !summary.open) parts.overSlot.append(parts.gameOver);
}

/** Knock rummy: one hand spread at the deal's end, each meld in a row, then its loose cards. */
function laidOutCell(hand, knocked) {
  return h("td", { class: "summary-hand laid-out", testid: "laid-out" },
    knocked ? h("span", { class: "badge" }, t("words.knocker")) : null,
    ...hand.melds.map((meld) => h("span", { class: "laid-meld", testid: "laid-meld" }, cardRow(meld.cards))),
    h("span", { class: "laid-loose", testid: "laid-loose" },
      hand.deadwood.length ? [h("span", { class: "help" }, t("words.loose")), " ", cardRow(hand.deadwood)] : h("span", { class: "help" }, t("words.nothing_loose"))));
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
      ? h("a", { class: "button primary", testid: "watch-rematch", href: `#/watch/${encodeURIComponent(view.next_table)}`, onclick: close }, t("words.watch_rematch"))
      : lobby(t("words.to_lobby"));
  }
  if (!view.party) return lobby(t("words.new_game"));
  const arena = store.raw(arenaKey(state.tableId)); // kept by the arena page that seated us
  if (arena) {
    return [
      h("a", { class: "button primary", testid: "back-to-arena", href: `#/arena/${encodeURIComponent(arena)}`, onclick: close }, t("arenas.back")),
      lobby(t("words.to_lobby")),
    ];
  }
  const mine = view.players[view.seat];
  if (mine && mine.left) return lobby(t("words.to_lobby"));
  return [
    h("button", { type: "button", class: "primary", testid: "rematch", onclick: intents.rematch }, t(view.next_table ? "words.join_rematch" : "words.rematch")),
    lobby(t("words.to_lobby")),
  ];
}

/** The way to the game's review: its replay, opened with this seat's decisions judged. */
function reviewLink(table) {
  const { state, parts } = table;
  const view = state.view;
  if (watching(view)) return null;
  const close = () => parts.summary.open && parts.summary.close();
  const href = `#/replay/${encodeURIComponent(state.tableId)}?review=${view.seat}`;
  return h("a", { class: "button ghost", testid: "review-link", href, onclick: close }, t("words.review_game"));
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
    h("h3", {}, t("words.game_over")),
    h("p", {}, gameOverText(view)),
    h("div", { class: "row" }, afterGame(table), reviewLink(table)));
}
