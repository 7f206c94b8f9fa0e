// "How to play" from the table: a link at the head of the table's side column to the rules of
// this very table (#/howto/ID).
import { t } from "../i18n.js";
import { h } from "../util.js";

/** Put the link above the scores (the top of the side column, beside the board). */
export function addHowtoLink(table, tableId) {
  const link = h("p", { class: "howto-link" },
    h("a", { href: `#/howto/${encodeURIComponent(tableId)}`, testid: "table-howto-link" }, t("howto.link")));
  table.parts.scoreboard.before(link);
}
