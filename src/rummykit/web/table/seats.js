// The number of players, changed at the table (against the computer only): choosing another
// asks first, then makes a new table with the same rules, name, timer and computer levels
// (extra seats get the last computer's level) and moves the page to it.
import { createTable, getRulesInPlay } from "../api.js";
import { t } from "../i18n.js";
import { h, fill, store, seatKey, LAST_TABLE } from "../util.js";
import { BOT_LEVELS } from "../protocol.js";

/** The computer levels for a table of `seats`: the table's own, in seat order, the last one
 * repeated for extra seats, the last ones dropped for fewer. */
export function levelsFor(players, seats) {
  const levels = players.filter((player) => player.kind === "bot").map((player) => player.level);
  const last = levels.length ? levels[levels.length - 1] : BOT_LEVELS[0];
  return Array.from({ length: seats - 1 }, (_, i) => levels[i] ?? last);
}

/** The `POST /api/tables` body of the same table with `seats` seats; `changed`: the options
 * that differ from its preset (POST /api/rules' `rules`). */
export function sameTableWith(view, changed, seats) {
  const me = view.players[view.seat];
  return {
    name: me ? me.name : "You",
    preset: view.preset,
    rules: changed,
    opponents: levelsFor(view.players, seats),
    turn_timer: view.turn_timer ?? null,
  };
}

/** Whether a table offers the switch: your own seat, against the computer, not practice. */
export const offersSeats = (view) => !!view && view.seat !== null && !view.party && !view.practice;

/**
 * Put the "Players" control in the table's settings panel; it redraws with the table
 * (`table.render` is wrapped). The control stays hidden where it does not apply.
 */
export function addSeatSwitch(table) {
  let asked = null; // the rules last asked about, and the server's answer once in
  let inPlay = null;
  let shown = "";
  const error = h("p", { class: "error", testid: "seats-error", role: "alert" });
  const select = h("select", { id: "seat-count", testid: "seat-count", "aria-describedby": "seat-count-help" });
  const field = h("div", { class: "field seats", testid: "seats", hidden: true },
    h("label", { for: "seat-count" }, t("seats.label")),
    select,
    h("p", { class: "help", id: "seat-count-help" }, t("seats.help")),
    error);
  const anchor = table.parts.newGame && table.parts.newGame.parentElement;
  if (anchor) anchor.after(field);
  else table.parts.page.append(field);

  /** The table sizes these rules deal come from the server (POST /api/rules), asked once
   * for each rule set the table plays. */
  function askSeats(view) {
    const key = JSON.stringify([view.preset, view.rules]);
    if (key === asked) return;
    asked = key;
    inPlay = null;
    getRulesInPlay(view.preset, view.rules)
      .then((made) => {
        if (asked !== key) return;
        inPlay = made;
        update();
      })
      .catch(() => {
        /* without the answer the switch stays hidden; the lobby still makes tables */
      });
  }

  function update() {
    const view = table.state.view;
    if (!view || !offersSeats(view)) {
      field.hidden = true;
      return;
    }
    askSeats(view);
    const counts = inPlay ? inPlay.seats : [];
    field.hidden = counts.length < 2;
    if (field.hidden) return;
    const key = `${counts.join()}/${view.players.length}`;
    if (key !== shown) {
      shown = key;
      fill(select, counts.map((count) => h("option", { value: String(count) }, t("seats.option", { count }))));
    }
    select.value = String(view.players.length);
  }

  select.addEventListener("change", async () => {
    const view = table.state.view;
    const seats = Number(select.value);
    if (!view || !inPlay || seats === view.players.length) return;
    if (!window.confirm(t("seats.confirm", { count: seats }))) {
      select.value = String(view.players.length);
      return;
    }
    error.textContent = "";
    select.disabled = true;
    try {
      const made = await createTable(sameTableWith(view, inPlay.rules, seats));
      store.setRaw(seatKey(made.table), made.token);
      store.setRaw(LAST_TABLE, made.table);
      location.hash = `#/table/${encodeURIComponent(made.table)}`;
    } catch (problem) {
      error.textContent = t("seats.failed", { problem: problem.message });
      select.value = String(view.players.length);
    } finally {
      select.disabled = false;
    }
  });

  const render = table.render;
  table.render = () => {
    render();
    update();
  };
}
