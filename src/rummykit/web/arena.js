// Arenas: tournaments for people (docs/PROTOCOL.md §2e). #/arenas lists the upcoming, running
// and lately finished ones and makes a new one (signed in); #/arena/ID shows its standings
// live, the time to its start or end, and Join / Pause: while the page is open and the arena
// runs, a free player is seated at its next table, and comes back here when the game is over.
import { askToSignIn, onAccount, signedIn } from "./account.js";
import { createArena, getArenas, ArenaConnection } from "./api.js";
import { t } from "./i18n.js";
import { partyRefusalText, problemText } from "./party/model.js";
import { enterTable } from "./party/seat.js";
import { ARENA_MINUTES, ARENA_SEATS, MAX_ARENA_DELAY_MIN, PRESET_NAMES, TURN_TIMERS, DEFAULT_PRESET } from "./protocol.js";
import { presetName } from "./rule_words.js";
import { h, fill, store, arenaKey } from "./util.js";

/** Minutes and seconds: "4:05". */
const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

/** An arena's terms in short: "standard · 2 players · 30 seconds a turn · 10 minutes". */
export const arenaTerms = (view) => [
  presetName(view.preset),
  t("arenas.players", { count: view.seats }),
  t("arenas.turn", { count: view.turn_timer }),
  t("arenas.minutes", { count: view.minutes }),
].join(" · ");

/** Where an arena stands: starts in, ends in, or who won. */
export function arenaWhen(view, startsIn, endsIn) {
  if (view.state === "upcoming") return t("arenas.starts_in", { time: clock(startsIn) });
  if (view.state === "running") return t("arenas.ends_in", { time: clock(endsIn) });
  return view.winner ? t("arenas.won_by", { name: view.winner }) : t("arenas.finished_empty");
}

function newArenaForm(onMade) {
  const name = h("input", { id: "arena-name", testid: "arena-name", type: "text", maxlength: "40", required: true });
  const preset = h("select", { id: "arena-preset", testid: "arena-preset" }, PRESET_NAMES.map((each) => h("option", { value: each }, presetName(each))));
  preset.value = DEFAULT_PRESET;
  const timer = h("select", { id: "arena-timer", testid: "arena-timer" }, TURN_TIMERS.map((s) => h("option", { value: String(s) }, t("arenas.turn", { count: s }))));
  const seats = h("select", { id: "arena-seats", testid: "arena-seats" }, ARENA_SEATS.map((n) => h("option", { value: String(n) }, t("arenas.players", { count: n }))));
  const minutes = h("select", { id: "arena-minutes", testid: "arena-minutes" }, ARENA_MINUTES.map((m) => h("option", { value: String(m) }, t("arenas.minutes", { count: m }))));
  minutes.value = String(ARENA_MINUTES.includes(30) ? 30 : ARENA_MINUTES[0]);
  const starts = h("input", { id: "arena-starts", testid: "arena-starts", type: "number", min: "0", max: String(MAX_ARENA_DELAY_MIN), value: "5" });
  const error = h("p", { class: "error", testid: "arena-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", testid: "arena-create" }, t("arenas.create"));
  const field = (label, control) => h("div", { class: "field" }, h("label", { for: control.id }, label), control);
  return h("form", {
    class: "arena-form",
    testid: "arena-form",
    onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = "";
      submit.disabled = true;
      try {
        onMade(await createArena({
          name: name.value.trim(), preset: preset.value, turn_timer: Number(timer.value),
          seats: Number(seats.value), minutes: Number(minutes.value), starts_in_min: Number(starts.value),
        }));
      } catch (problem) {
        error.textContent = problemText(problem);
      } finally {
        submit.disabled = false;
      }
    },
  },
  h("h2", {}, t("arenas.new_heading")),
  field(t("arenas.name"), name), field(t("arenas.rules"), preset), field(t("arenas.turn_time"), timer),
  field(t("arenas.table_size"), seats), field(t("arenas.length"), minutes), field(t("arenas.starts_label"), starts),
  h("div", { class: "row" }, submit), error);
}

export function mountArenas(root) {
  document.title = t("arenas.title");
  const list = h("ul", { class: "arena-list", testid: "arena-list" }, h("li", { class: "help" }, t("common.loading")));
  const make = h("div", {});
  const drawForm = () => fill(make, signedIn()
    ? newArenaForm((view) => (location.hash = `#/arena/${encodeURIComponent(view.id)}`))
    : h("p", { testid: "arena-signed-out" }, t("arenas.sign_in_to_make"), " ",
      h("button", { type: "button", class: "link-like", onclick: () => askToSignIn(t("arenas.sign_in_why")) }, t("account.sign_in"))));
  fill(root, h("section", { class: "panel arenas" }, h("h1", {}, t("arenas.heading")), h("p", {}, t("arenas.intro")), list, make));
  drawForm();
  const stop = onAccount(drawForm);
  getArenas()
    .then((found) => fill(list, found.arenas.length
      ? found.arenas.map((view) => h("li", { class: "arena-line", testid: "arena-line", "data-id": view.id },
        h("a", { href: `#/arena/${encodeURIComponent(view.id)}`, testid: "arena-link" }, view.name), " ",
        h("span", { class: "help" }, arenaTerms(view)), " ",
        h("span", { testid: "arena-when" }, arenaWhen(view, view.starts_in_s, view.ends_in_s))))
      : h("li", { class: "help", testid: "arenas-none" }, t("arenas.none"))))
    .catch((problem) => fill(list, h("li", { class: "error", role: "alert" }, problem.message)));
  return stop;
}

export function mountArena(root, id) {
  document.title = t("arenas.title");
  const heading = h("h1", { testid: "arena-heading" }, t("common.loading"));
  const terms = h("p", { class: "help", testid: "arena-terms" });
  const when = h("p", { testid: "arena-when", role: "timer", "aria-live": "off" });
  const join = h("button", { type: "button", class: "primary", testid: "arena-join" }, t("arenas.join"));
  const pause = h("button", { type: "button", testid: "arena-pause", hidden: true }, t("arenas.pause"));
  const status = h("p", { class: "help", testid: "arena-status", "aria-live": "polite" });
  const error = h("p", { class: "error", testid: "arena-error", role: "alert" });
  const rows = h("tbody", {});
  const table = h("table", { class: "arena-standings", testid: "arena-standings" },
    h("thead", {}, h("tr", {}, ["#", t("arenas.player"), t("arenas.points"), t("arenas.games"), t("arenas.wins")].map((text) => h("th", { scope: "col" }, text)))),
    rows);
  let view = null;
  let received = 0;
  const connect = () => new ArenaConnection(id, {
    message: (message) => {
      if (message.t === "arena") {
        view = message.d;
        received = Date.now();
        draw();
      } else if (message.t === "paired") {
        store.setRaw(arenaKey(message.d.table), id);
        status.textContent = t("arenas.seated");
        enterTable(message.d);
      } else if (message.t === "refused") {
        error.textContent = partyRefusalText(message.d);
      }
    },
    noSeat: () => fill(root, h("section", { class: "panel" }, h("p", { testid: "arena-missing" }, t("arenas.missing")))),
  });
  let conn = connect();
  join.addEventListener("click", () => {
    error.textContent = "";
    if (!signedIn()) askToSignIn(t("arenas.sign_in_why"));
    else conn.send("join");
  });
  pause.addEventListener("click", () => conn.send("pause"));

  function tick() {
    if (!view) return;
    const gone = Math.floor((Date.now() - received) / 1000);
    when.textContent = arenaWhen(view, Math.max(0, view.starts_in_s - gone), Math.max(0, view.ends_in_s - gone));
  }

  function draw() {
    heading.textContent = view.name;
    terms.textContent = arenaTerms(view);
    tick();
    const mine = view.standings.find((line) => line.name === view.me);
    const playing = !!view.me && !!mine && !mine.paused;
    join.hidden = view.state === "finished" || playing;
    pause.hidden = view.state === "finished" || !playing;
    status.textContent = view.state === "finished" || !playing ? "" : t(view.state === "upcoming" ? "arenas.wait_start" : "arenas.wait_table");
    fill(rows, view.standings.map((line, index) =>
      h("tr", { testid: "arena-row", "data-name": line.name, class: line.name === view.me ? "me" : "" },
        h("td", {}, String(index + 1)),
        h("th", { scope: "row" }, line.name, line.on_fire ? h("span", { class: "fire", testid: "on-fire", title: t("arenas.on_fire") }, " 🔥") : null,
          line.playing ? h("span", { class: "help" }, ` ${t("arenas.at_table")}`) : null),
        h("td", { testid: "arena-points" }, String(line.points)),
        h("td", {}, String(line.games)),
        h("td", {}, String(line.wins)))));
  }

  fill(root, h("section", { class: "panel arena" }, heading, terms, when,
    h("div", { class: "row" }, join, pause), status, error,
    h("h2", {}, t("arenas.standings")), table,
    h("p", { class: "help" }, t("arenas.scoring")),
    h("p", {}, h("a", { href: "#/arenas" }, t("arenas.all")))));
  conn.start();
  const timer = setInterval(tick, 1000);
  const stop = onAccount(() => {
    conn.stop(); // the socket is the account's: opened again as the new one
    conn = connect();
    conn.start();
  });
  return () => {
    clearInterval(timer);
    stop();
    conn.stop();
  };
}
