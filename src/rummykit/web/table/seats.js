// The number of players, changed at the table (against the computer only): choosing another
// asks first, then makes a new table with the same rules, name, timer and computer levels
// (extra seats get the last computer's level) and moves the page to it.
import { createTable, getOptions } from "../api.js";
import { t } from "../i18n.js";
import { h, fill, store, seatKey, LAST_TABLE } from "../util.js";
import { BOT_LEVELS } from "../protocol.js";

const CARDS_IN_A_DECK = 52;

/** Cards dealt to each seat at a table of `seats` (Rules.hand_size_for); `limits` is the
 * server's `seats` of `GET /api/options` (its `hand_by_seats`, and `hand_by_seats_500` for
 * 500 Rum's deal). */
export function handSizeFor(rules, seats, limits) {
  if (rules.hand_size === "by_seats_500") return limits.hand_by_seats_500[String(seats)];
  if (rules.hand_size !== "by_seats") return Number(rules.hand_size);
  return limits.hand_by_seats[String(seats)];
}

/** The table sizes the preset is made for and the rules can deal (Rules.check_seats: within
 * the server's `limits`, two decks past `one_deck` seats, every hand and the up-card). */
export function seatCounts(preset, rules, limits) {
  const deck = CARDS_IN_A_DECK * rules.decks + rules.jokers;
  const counts = [];
  for (let seats = Math.max(limits.min, preset.min_seats); seats <= Math.min(limits.max, preset.max_seats); seats += 1) {
    if (seats > limits.one_deck && rules.decks < 2) continue;
    if (seats * handSizeFor(rules, seats, limits) + 1 <= deck) counts.push(seats);
  }
  return counts;
}

/** The computer levels for a table of `seats`: the table's own, in seat order, the last one
 * repeated for extra seats, the last ones dropped for fewer. */
export function levelsFor(players, seats) {
  const levels = players.filter((player) => player.kind === "bot").map((player) => player.level);
  const last = levels.length ? levels[levels.length - 1] : BOT_LEVELS[0];
  return Array.from({ length: seats - 1 }, (_, i) => levels[i] ?? last);
}

/** The options of `rules` that differ from the preset's own (what `POST /api/tables` takes). */
export function changedRules(presetRules, rules) {
  return Object.fromEntries(Object.entries(rules).filter(([name, value]) => presetRules[name] !== value));
}

/** The `POST /api/tables` body of the same table with `seats` seats. */
export function sameTableWith(view, preset, seats) {
  const me = view.players[view.seat];
  return {
    name: me ? me.name : "You",
    preset: view.preset,
    rules: changedRules(preset.rules, view.rules),
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
  let options = null;
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

  function update() {
    const view = table.state.view;
    const preset = options && view && options.presets[view.preset];
    const counts = preset && offersSeats(view) ? seatCounts(preset, view.rules, options.seats) : [];
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
    if (!view || seats === view.players.length) return;
    if (!window.confirm(t("seats.confirm", { count: seats }))) {
      select.value = String(view.players.length);
      return;
    }
    error.textContent = "";
    select.disabled = true;
    try {
      const made = await createTable(sameTableWith(view, options.presets[view.preset], seats));
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
  getOptions()
    .then((found) => {
      options = found;
      update();
    })
    .catch(() => {
      /* without the presets the switch stays hidden; the lobby still makes tables */
    });
}
