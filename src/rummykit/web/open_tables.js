// "Open tables" (the lobby's list of parties their hosts listed): each line says the rules in
// short, the seats taken, the host (and rating, ranked), with "Take a seat": one click joins.
// The list comes live over /ws/lobby (docs/PROTOCOL.md §2b); the page keeps no copy of it.
import { signedIn } from "./account.js";
import { LobbyConnection, joinParty } from "./api.js";
import { t } from "./i18n.js";
import { problemText } from "./party/model.js";
import { enterParty } from "./party/seat.js";
import { presetName } from "./rule_words.js";
import { h, fill, store } from "./util.js";

/** The rules of a listed party in short: "classic · to 100 points · 30 seconds a turn · ranked". */
export function openTableRules(line) {
  const parts = [presetName(line.preset)];
  if (line.target !== null) parts.push(t("lobby.open_to_points", { count: line.target }));
  else if (line.deals !== null) parts.push(t("lobby.open_deals", { count: line.deals }));
  parts.push(line.turn_timer ? t("lobby.seconds_a_turn", { count: line.turn_timer }) : t("lobby.open_no_timer"));
  parts.push(t(line.ranked ? "lobby.open_ranked" : "lobby.open_friendly"));
  return parts.join(" · ");
}

/** Who hosts: the name, and the rating for a ranked party ("?" while it is provisional). */
export function openTableHost(line) {
  if (line.host_rating === null) return t("lobby.open_host", { name: line.host });
  const rating = `${line.host_rating}${line.host_provisional ? "?" : ""}`;
  return t("lobby.open_host_rated", { name: line.host, rating });
}

/** The reference a line's link holds (CODE.KEY), which joins without the code-alone limit. */
const referenceOf = (line) => line.url.slice(line.url.lastIndexOf("/") + 1);

/** The panel. `nameOf()` is the name a guest joins with (the friends panel's field), `askName()`
 * points at that field when it is empty. Returns {node, stop}. */
export function openTablesPanel(nameOf, askName) {
  const list = h("ul", { class: "open-tables-list", testid: "open-tables-list" });
  const none = h("p", { class: "help", testid: "open-tables-none", hidden: true }, t("lobby.open_none"));
  const error = h("p", { class: "error", testid: "open-tables-error", role: "alert" });
  const count = h("p", { class: "sr-only", "aria-live": "polite", testid: "open-tables-count" });

  async function take(line, button) {
    const me = signedIn();
    const who = me ? me.name : nameOf();
    if (!who) {
      error.textContent = t("lobby.open_name_first");
      askName();
      return;
    }
    if (!me) store.set("rummykit.name", who);
    error.textContent = "";
    button.disabled = true;
    try {
      enterParty(await joinParty(referenceOf(line), who));
    } catch (problem) {
      error.textContent = problemText(problem);
      button.disabled = false;
    }
  }

  function show(tables) {
    none.hidden = tables.length > 0;
    count.textContent = t("lobby.open_count", { count: tables.length });
    fill(list, tables.map((line) => {
      const button = h("button", { type: "button", class: "primary", testid: "take-seat" }, t("lobby.open_take"));
      button.addEventListener("click", () => take(line, button));
      return h("li", { class: "open-table", testid: "open-table", "data-code": line.code },
        h("strong", { testid: "open-table-rules" }, openTableRules(line)),
        h("span", { testid: "open-table-host" }, openTableHost(line)),
        h("span", { class: "help", testid: "open-table-seats" },
          t("lobby.open_seats", { count: line.seats_taken, seats: line.seats })),
        button);
    }));
  }

  const conn = new LobbyConnection({
    message: (message) => {
      if (message.t === "open_tables") show(message.d.tables);
    },
  });
  conn.start();
  const node = h("section", { class: "panel open-tables", testid: "open-tables", "aria-labelledby": "open-tables-heading" },
    h("h2", { id: "open-tables-heading" }, t("lobby.open_heading")),
    h("p", { class: "help" }, t("lobby.open_text")),
    list,
    none,
    count,
    error);
  return { node, stop: () => conn.stop() };
}
