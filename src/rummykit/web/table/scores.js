// Drawing the scoreboard from the view: each seat's total, what ends the game, and the
// deals played so far.
import { h, fill } from "../util.js";
import { pastDealText, who } from "./texts.js";

export function renderScores(table) {
  const view = table.state.view;
  const rows = view.players.map((player, seat) =>
    h("tr", { class: seat === view.seat ? "me" : "" },
      h("th", { scope: "row" }, who(view, seat), seat !== view.seat ? h("span", { class: "help" }, ` ${player.level || ""}`) : null),
      h("td", { "data-seat": String(seat) }, String(view.scores[seat]))));
  const goal = view.deals_limit
    ? `${view.deals_limit} deals; this is deal ${view.deal + 1}.`
    : `First to ${view.target} ends the game. Deal ${view.deal + 1}.`;
  const past = view.history.length
    ? h("details", {},
        h("summary", {}, "Deals so far"),
        h("ol", { class: "past" }, view.history.map((deal) => h("li", {}, pastDealText(view, deal)))))
    : null;
  fill(table.parts.scoreboard,
    h("h2", {}, "Scores"),
    h("table", {}, h("tbody", {}, rows)),
    h("p", { class: "help target", testid: "target" }, goal, view.lower_wins ? " Lowest total wins." : ""),
    past);
}
