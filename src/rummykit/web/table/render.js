// Drawing the whole table from the state, part by part; the log of what happened; the pace
// slider. Each part's own module draws it; this one calls them in order.
import { markProgramSeats } from "../account_badge.js";
import { t } from "../i18n.js";
import { h } from "../util.js";
import { renderExplain, renderHint } from "./advice.js";
import { renderMelds, renderPiles, renderSeats } from "./board.js";
import { renderButtons, renderHand } from "./hand.js";
import { renderScores } from "./scores.js";
import { myTurn } from "./state.js";
import { renderGameOver, renderSummary } from "./summary.js";
import { statusText, watching } from "./texts.js";
import { renderTimer } from "./timer.js";

/** Lines kept in the log: enough for a few deals, without growing for ever. */
const LOG_LIMIT = 200;

export function render(table) {
  const { state, parts } = table;
  const view = state.view;
  if (!view) return;
  const spectator = watching(view);
  // Whose turn it is, where a background tab shows it: the page's title.
  const mine = !spectator && myTurn(view);
  document.title = t(spectator ? "table.title_watching" : mine ? "table.title_your_turn" : "table.title");
  parts.board.classList.toggle("my-turn", mine);
  parts.page.classList.toggle("practice", !!view.practice);
  // a spectator sees the table only; a party's table has no redeal and no hint (friends
  // play on their own), and may be left for good
  parts.page.classList.toggle("watching", spectator);
  parts.page.classList.toggle("party-table", !!view.party);
  parts.watchBadge.hidden = !spectator;
  if (spectator) parts.watchBadge.textContent = view.watchers > 1 ? t("table.watching_with", { count: view.watchers - 1 }) : t("table.watching");
  parts.leave.hidden = !view.party || spectator || view.game_over;
  parts.newDeal.hidden = !!view.party || spectator;
  parts.hintButton.hidden = !!view.party || spectator;
  parts.hintField.hidden = parts.hintButton.hidden;
  parts.reactionBar.hidden = !view.party || spectator || !parts.reactions.childElementCount;
  renderSeats(table);
  markProgramSeats(parts.opponents, view.players);
  markProgramSeats(parts.mySeat, view.players);
  renderPiles(table);
  renderMelds(table);
  renderHand(table);
  renderButtons(table);
  renderScores(table);
  renderHint(table);
  renderExplain(table);
  renderGameOver(table);
  const text = statusText(view);
  if (parts.status.textContent !== text) parts.status.textContent = text;
  // whose turn the status line tells, for tests and styles in any language
  parts.status.dataset.turn = spectator ? "watching" : mine ? "mine" : "other";
  renderTimer(table);
  // Last: the summary dialog may take the game-over notice drawn just above.
  renderSummary(table);
}

/** Add lines ({text, kind}) to the log, dropping the oldest past the limit. */
export function appendLog(parts, lines) {
  const log = parts.log;
  for (const { text, kind } of lines) log.append(h("li", { class: kind }, text));
  while (log.children.length > LOG_LIMIT) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** Show the server's pace, unless you are moving the slider. */
export function showPace(parts, ms) {
  if (document.activeElement === parts.pace) return;
  parts.pace.value = String(ms);
  parts.paceOut.textContent = t("table.pace_ms", { ms });
}
