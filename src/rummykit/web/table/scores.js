// Drawing the scoreboard from the view: each seat's total, what ends the game, and the
// deals played so far.
import { t } from "../i18n.js";
import { h, fill, number } from "../util.js";
import { levelName, pastDealText, who } from "./texts.js";

export function renderScores(table) {
  const view = table.state.view;
  const rows = view.players.map((player, seat) =>
    h("tr", { class: seat === view.seat ? "me" : "" },
      h("th", { scope: "row" }, who(view, seat), seat !== view.seat && player.level ? h("span", { class: "help" }, ` ${levelName(player.level)}`) : null),
      h("td", { "data-seat": String(seat) }, number(view.scores[seat]))));
  const goal = view.deals_limit
    ? t("words.deals_goal", { limit: view.deals_limit, deal: view.deal + 1 })
    : t("words.target_goal", { target: view.target, deal: view.deal + 1 });
  const past = view.history.length
    ? h("details", {},
        h("summary", {}, t("words.deals_so_far")),
        h("ol", { class: "past" }, view.history.map((deal) => h("li", {}, pastDealText(view, deal)))))
    : null;
  fill(table.parts.scoreboard,
    h("h2", {}, t("words.scores")),
    h("table", {}, h("tbody", {}, rows)),
    h("p", { class: "help target", testid: "target" }, goal, view.lower_wins ? ` ${t("words.lowest_wins")}` : ""),
    past);
}
