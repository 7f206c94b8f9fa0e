// The lobby (#/): who you play, under which rules; continue a game; start a practice game;
// make a party to play with friends, or join one with its code; the programs online.
import { onAccount, openAccount, signedIn, whenKnown } from "./account.js";
import { botBadge } from "./account_badge.js";
import { rankedChoice, rankedTimer } from "./account_model.js";
import { createParty, createTable, getBots, getOptions, getRulesInPlay, getTable } from "./api.js";
import { listOf, t } from "./i18n.js";
import { playerHref } from "./leaderboard.js";
import { PRACTICE_OPPONENTS, PRACTICE_PRESET, TABLE_PRESET } from "./protocol.js";
import { PARTY_PRESET, cleanCode, problemText } from "./party/model.js";
import { openTablesPanel } from "./open_tables.js";
import { playNowPanel } from "./play_now.js";
import { enterParty } from "./party/seat.js";
import { ruleControl } from "./rule_form.js";
import { presetName, presetSummary } from "./rule_words.js";
import { dailyPuzzleLine } from "./puzzle_of_the_day.js";
import { h, fill, store, seatKey, LAST_TABLE } from "./util.js";

/** "Play with friends": make a party (you host it, with the rule text's defaults; ranked
 * when signed in, with a turn timer), or go to one by its code. The panel's `setOptions`
 * fills the timers once /api/options is in; `stop` lets go of the account's changes. */
function friendsPanel(options) {
  const error = h("p", { class: "error", testid: "friends-error", role: "alert" });
  const name = h("input", {
    id: "friends-name", testid: "friends-name", type: "text", maxlength: "24",
    autocomplete: "nickname", value: store.get("rummykit.name", "") || "",
  });
  const nameRow = h("div", { class: "field" }, h("label", { for: "friends-name" }, t("lobby.your_name")), name);
  const playAs = h("p", { testid: "friends-play-as", hidden: true });
  const timer = h("select", { id: "friends-timer", testid: "friends-timer" }, h("option", { value: "" }, t("common.no_time_limit")));
  const ranked = h("input", { id: "friends-ranked", testid: "friends-ranked", type: "checkbox", "aria-describedby": "friends-ranked-help" });
  const listed = h("input", { id: "friends-listed", testid: "friends-listed", type: "checkbox" });
  const rankedHelp = h("span", { id: "friends-ranked-help" });
  const signIn = h("button", { type: "button", class: "link-like", testid: "friends-sign-in", onclick: () => openAccount() }, t("account.sign_in"));
  let timers = [];

  /** The timer the form sends: seconds, or null. */
  const chosenTimer = () => (timer.value ? Number(timer.value) : null);

  function showRanked() {
    const me = signedIn();
    const choice = rankedChoice(me, timers);
    ranked.disabled = !choice.enabled;
    if (!choice.enabled) ranked.checked = false;
    rankedHelp.textContent = choice.why;
    signIn.hidden = !!me;
    nameRow.hidden = !!me;
    playAs.hidden = !me;
    if (me) playAs.textContent = t("account.you_play_as", { name: me.name });
    // ranked needs a timer: "no time limit" is no choice then
    const none = timer.options[0];
    if (none) none.disabled = ranked.checked;
    if (ranked.checked) {
      const wanted = rankedTimer(chosenTimer(), choice.timers);
      if (wanted !== null) timer.value = String(wanted);
    }
  }
  ranked.addEventListener("change", showRanked);

  const create = h("button", { type: "button", class: "primary big", testid: "play-with-friends" }, t("lobby.friends_create"));
  create.addEventListener("click", async () => {
    const me = signedIn();
    const who = me ? me.name : name.value.trim();
    if (!who) {
      error.textContent = t("lobby.friends_name_first");
      name.focus();
      return;
    }
    if (!me) store.set("rummykit.name", who);
    error.textContent = "";
    create.disabled = true;
    try {
      const preset = options() && !options().presets[PARTY_PRESET] ? undefined : PARTY_PRESET;
      const seconds = chosenTimer();
      const made = await createParty({
        name: who,
        ...(preset ? { preset } : {}),
        ...(seconds ? { turn_timer: seconds } : {}),
        ...(ranked.checked ? { ranked: true } : {}),
        ...(listed.checked ? { listed: true } : {}),
      });
      enterParty(made);
    } catch (problem) {
      error.textContent = problemText(problem);
    } finally {
      create.disabled = false;
    }
  });
  const code = h("input", {
    id: "join-code", testid: "join-code", type: "text", maxlength: "16", autocomplete: "off",
    autocapitalize: "characters", spellcheck: false, placeholder: t("lobby.code_placeholder"),
  });
  const join = h("form", {
    class: "row join-code",
    onsubmit: (event) => {
      event.preventDefault();
      const wanted = cleanCode(code.value);
      if (!wanted) {
        error.textContent = t("lobby.code_first");
        code.focus();
        return;
      }
      location.hash = `#/party/${encodeURIComponent(wanted)}`;
    },
  },
  h("label", { for: "join-code" }, t("lobby.have_code")), code,
  h("button", { type: "submit", testid: "join-with-code" }, t("lobby.join")));
  const node = h("section", { class: "panel friends", testid: "friends" },
    h("h2", {}, t("lobby.friends_heading")),
    h("p", {}, t("lobby.friends_text")),
    nameRow,
    playAs,
    h("div", { class: "field" }, h("label", { for: "friends-timer" }, t("party.turn_time")), timer),
    h("div", { class: "field check ranked-choice" }, ranked, h("label", { for: "friends-ranked" }, t("account.ranked")),
      h("p", { class: "help" }, rankedHelp, " ", signIn)),
    h("div", { class: "field check" }, listed, h("label", { for: "friends-listed" }, t("lobby.friends_listed"))),
    h("div", { class: "row" }, create),
    join,
    error);
  const stop = onAccount(showRanked);
  showRanked();
  whenKnown().then(showRanked);
  return {
    node,
    stop,
    name: () => (signedIn() ? signedIn().name : name.value.trim()),
    askName: () => name.focus(),
    setOptions(found) {
      timers = found.turn_timers || [];
      fill(timer, h("option", { value: "" }, t("common.no_time_limit")),
        timers.map((seconds) => h("option", { value: String(seconds) }, t("lobby.seconds_a_turn", { count: seconds }))));
      showRanked();
    },
  };
}

/** "Programs online": the programs' accounts online (GET /api/bots, asked once as the lobby
 * is drawn), each a link to its page, where it is challenged, with the games it is playing;
 * a short line when none is, nothing when the server does not say. */
function botsPanel() {
  const body = h("div", { class: "bots-body" }, h("p", { class: "help" }, t("common.loading")));
  const node = h("section", { class: "panel bots-online", testid: "bots-online", "aria-labelledby": "bots-online-heading" },
    h("h2", { id: "bots-online-heading" }, t("lobby.bots_heading")),
    body);
  getBots()
    .then((found) => {
      const bots = found.bots || [];
      if (!bots.length) {
        fill(body, h("p", { class: "help", testid: "bots-none" }, t("lobby.bots_none")));
        return;
      }
      fill(body,
        h("p", { class: "help" }, t("lobby.bots_text")),
        h("ul", { class: "bots-list" }, bots.map((bot) =>
          h("li", { class: "bot-online", testid: "bot-online", "data-name": bot.name },
            h("a", { href: playerHref(bot.name), testid: "bot-link" }, bot.name),
            botBadge(),
            h("span", { class: "help", testid: "bot-playing" },
              bot.playing ? t("lobby.bot_playing", { count: bot.playing }) : t("lobby.bot_free"))))));
    })
    .catch(() => {
      node.hidden = true; // the list is an extra: the lobby works without it
    });
  return node;
}

// Every option's title, help, values and labels come from /api/options (the options' one
// description in rummykit.core.rules), and what a change makes (the preset's ties, the table
// sizes) from POST /api/rules: this page keeps no list and no rule of its own.

export function mountLobby(root) {
  document.title = t("lobby.title");
  let options = null;
  const error = h("p", { class: "error", testid: "lobby-error", role: "alert" });
  const continueBox = h("div", { class: "continue-box" });

  const name = h("input", {
    id: "name",
    testid: "name",
    type: "text",
    maxlength: "24",
    autocomplete: "nickname",
    value: store.get("rummykit.name", "") || "",
    placeholder: t("lobby.name_placeholder"),
  });

  // How many computer players: one for each table size these rules deal, less your seat, as
  // the server's answer to the rules (POST /api/rules) says.
  const count = h("select", { id: "opponents-count", testid: "opponents-count" }, h("option", { value: "1" }, "1"));
  const levelRows = [];
  const levelSelects = [];
  const levelsBox = h("div", { class: "level-rows" });
  const showLevels = () => {
    const n = Number(count.value);
    levelRows.forEach((row, i) => (row.hidden = i >= n));
  };
  function buildSeats(seats) {
    const kept = count.value;
    const counts = seats.map((players) => players - 1);
    fill(count, counts.map((n) => h("option", { value: String(n) }, String(n))));
    // the count kept when offered, else the most still offered below it
    count.value = String(counts.filter((n) => n <= Number(kept)).at(-1) ?? counts[0] ?? 1);
    const most = Math.max(1, ...counts);
    while (levelSelects.length < most) {
      const i = levelSelects.length;
      const select = h("select", { id: `opponent-level-${i}`, testid: `opponent-level-${i}` });
      levelSelects.push(select);
      levelRows.push(h("div", { class: "field level-row" }, h("label", { for: select.id }, t("lobby.opponent", { n: i + 1 })), select));
    }
    // the levels the server offers (its BOT_LEVELS, weakest first): the page keeps no list
    const levels = options ? options.levels : [];
    for (const select of levelSelects) {
      const kept = select.value;
      fill(select, levels.map((level) => h("option", { value: level }, t(`common.level.${level}`))));
      if (levels.includes(kept)) select.value = kept;
    }
    fill(levelsBox, levelRows);
    showLevels();
  }
  count.addEventListener("change", showLevels);
  buildSeats([2]);

  // The turn timer: the server keeps the time; a turn that runs out is played by the computer.
  const turnTimer = h(
    "select",
    { id: "turn-timer", testid: "turn-timer-choice", "aria-describedby": "turn-timer-help" },
    h("option", { value: "" }, t("common.no_time_limit")),
  );

  const preset = h("select", { id: "preset", testid: "preset", "aria-describedby": "preset-summary" });
  const summary = h("p", { class: "help", id: "preset-summary", testid: "preset-summary", "data-words": "rules" });
  const rulesBody = h("div", { class: "rules-grid", "data-words": "rules" });
  const controls = {};

  function presetInfo() {
    return options && options.presets[preset.value];
  }

  /** The options chosen here, by name: those left "as the preset" are not among them. */
  function overrides() {
    const chosen = {};
    for (const [option, made] of Object.entries(controls)) {
      const value = made.get();
      if (value !== undefined && !(made.field.kind === "boolean" && value === made.field.default)) chosen[option] = value;
    }
    return chosen;
  }

  // What the choices make, from the server: each "as the preset" says the value it will be
  // (a tie may move it), and the opponents offered are the table sizes the rules can deal.
  let asked = 0;
  const rulesProblem = h("p", { class: "error", testid: "rules-problem", role: "alert" });
  async function showInPlay() {
    const info = presetInfo();
    if (!info) return;
    const mine = (asked += 1);
    try {
      const made = await getRulesInPlay(preset.value, overrides());
      if (mine !== asked) return; // a later change is on its way
      rulesProblem.textContent = "";
      for (const [option, control] of Object.entries(controls)) control.showDefault(made.in_play[option]);
      buildSeats(made.seats);
      start.disabled = made.seats.length === 0;
    } catch (problem) {
      if (mine !== asked) return;
      rulesProblem.textContent = problem.message;
      start.disabled = true;
    }
  }

  function buildRules() {
    const info = presetInfo();
    const said = info ? presetSummary(preset.value, info) : "";
    if (!info) summary.textContent = "";
    else if (info.min_seats === info.max_seats) summary.textContent = t("lobby.players_exact", { summary: said, count: info.min_seats });
    else summary.textContent = t("lobby.players_range", { summary: said, min: info.min_seats, max: info.max_seats });
    for (const option of Object.keys(controls)) delete controls[option];
    fill(rulesBody);
    if (!info) return;
    for (const field of info.form) {
      const made = ruleControl(field, `rule-${field.name}`, { preset: preset.value, ties: info.ties, blank: true, onchange: showInPlay });
      if (field.kind === "boolean") made.set(field.default);
      else if (field.none !== null && field.default === null) made.set(null);
      controls[field.name] = made;
      rulesBody.append(made.row);
    }
    showInPlay();
  }
  preset.addEventListener("change", buildRules);

  const start = h("button", { type: "submit", class: "primary big", testid: "start" }, t("lobby.start"));
  const practice = h("button", { type: "button", class: "big", testid: "practice" }, t("lobby.practice"));

  async function begin(isPractice) {
    error.textContent = "";
    const who = name.value.trim();
    store.set("rummykit.name", who);
    const n = Number(count.value);
    const body = {
      ...(who ? { name: who } : {}), // the server names an unnamed player "You"
      practice: isPractice,
      preset: isPractice ? PRACTICE_PRESET : preset.value,
      rules: isPractice ? {} : overrides(),
      opponents: isPractice ? [...PRACTICE_OPPONENTS] : levelSelects.slice(0, n).map((s) => s.value),
      turn_timer: !isPractice && turnTimer.value ? Number(turnTimer.value) : null,
    };
    start.disabled = practice.disabled = true;
    try {
      const made = await createTable(body);
      store.setRaw(seatKey(made.table), made.token);
      store.setRaw(LAST_TABLE, made.table);
      location.hash = `#/table/${encodeURIComponent(made.table)}`;
    } catch (problem) {
      error.textContent = problem.message;
    } finally {
      start.disabled = practice.disabled = false;
    }
  }

  const form = h(
    "form",
    {
      class: "panel lobby-form",
      onsubmit: (event) => {
        event.preventDefault();
        begin(false);
      },
    },
    h("h2", {}, t("lobby.new_game")),
    h("div", { class: "field" }, h("label", { for: "name" }, t("lobby.your_name")), name),
    h("div", { class: "field" }, h("label", { for: "opponents-count" }, t("lobby.opponents")), count),
    h("fieldset", { class: "levels" }, h("legend", {}, t("lobby.levels")), levelsBox,
      h("p", { class: "help" }, t("lobby.levels_help"))),
    h("div", { class: "field" }, h("label", { for: "turn-timer" }, t("lobby.turn_timer")), turnTimer),
    h("p", { class: "help", id: "turn-timer-help" }, t("lobby.turn_timer_help")),
    h("div", { class: "field" }, h("label", { for: "preset" }, t("lobby.rules")), preset),
    summary,
    h("details", { class: "house-rules", testid: "house-rules" },
      h("summary", {}, t("lobby.house_rules")),
      h("p", { class: "help" }, t("lobby.house_rules_help")),
      rulesBody),
    rulesProblem,
    h("div", { class: "row" }, start),
    error,
  );

  const learn = h(
    "section",
    { class: "panel learn" },
    h("h2", {}, t("lobby.learn_heading")),
    h("p", {}, t("lobby.learn_text")),
    h("div", { class: "row" }, practice),
    h("p", {}, h("a", { href: "#/lessons", testid: "lessons-link" }, t("lessons.link")), " ", t("lessons.lobby_about")),
    dailyPuzzleLine(),
  );
  practice.addEventListener("click", () => begin(true));

  const friends = friendsPanel(() => options);
  const playNow = playNowPanel();
  const openTables = openTablesPanel(friends.name, friends.askName);
  fill(
    root,
    h("div", { class: "lobby" },
      h("section", { class: "intro" },
        h("h1", {}, t("lobby.heading")),
        h("p", {}, t("lobby.intro")),
        continueBox,
        h("p", {}, h("a", { href: "#/history", testid: "history-link" }, t("lobby.history_link"))),
        h("p", {}, h("a", { href: "#/howto", testid: "howto-link" }, t("howto.link"))),
        h("p", {}, h("a", { href: "#/arenas", testid: "arenas-link" }, t("arenas.lobby_link")))),
      playNow.node,
      form,
      learn,
      friends.node,
      openTables.node,
      botsPanel()),
  );

  const last = store.raw(LAST_TABLE);
  const lastToken = last && store.raw(seatKey(last));
  if (last && lastToken) {
    getTable(last, lastToken)
      .then((found) => {
        if (!found || found.view.game_over) return;
        const v = found.view;
        const where = v.players
          .filter((_, seat) => seat !== v.seat)
          .map((p) => (p.level ? t("lobby.player_with_level", { name: p.name, level: t(`common.level.${p.level}`) }) : p.name));
        fill(continueBox,
          h("a", { class: "button primary", href: `#/table/${encodeURIComponent(last)}`, testid: "continue" }, t("lobby.continue")),
          " ",
          h("span", { class: "help" }, t("lobby.continue_where", { deal: v.deal + 1, players: listOf(where) })));
      })
      .catch((problem) => {
        if (problem.status === 404) store.remove(LAST_TABLE);
      });
  }

  getOptions()
    .then((found) => {
      options = found;
      // the limits the server offers (its TURN_TIMERS): the page keeps no list of its own
      fill(turnTimer, [
        h("option", { value: "" }, t("common.no_time_limit")),
        ...options.turn_timers.map((s) => h("option", { value: String(s) }, t("lobby.seconds_a_turn", { count: s }))),
      ]);
      fill(preset, Object.keys(options.presets).map((p) => h("option", { value: p }, presetName(p))));
      if (options.presets[TABLE_PRESET]) preset.value = TABLE_PRESET;
      buildRules();
      friends.setOptions(options);
    })
    .catch((problem) => {
      error.textContent = t("common.rules_failed", { problem: problem.message });
    });

  return () => {
    friends.stop();
    playNow.stop();
    openTables.stop();
  };
}
