// The lobby (#/): who you play, under which rules; continue a game; start a practice game;
// make a party to play with friends, or join one with its code.
import { createParty, createTable, getOptions, getTable } from "./api.js";
import { PARTY_PRESET, cleanCode, partyKey } from "./party/model.js";
import { t } from "./i18n.js";
import { h, fill, store, seatKey, LAST_TABLE } from "./util.js";

/** "Play with friends": make a party (you host it, with the rule text's defaults), or go to
 * one by its code. */
function friendsPanel(options) {
  const error = h("p", { class: "error", testid: "friends-error", role: "alert" });
  const name = h("input", {
    id: "friends-name", testid: "friends-name", type: "text", maxlength: "24",
    autocomplete: "nickname", value: store.get("rummykit.name", "") || "",
  });
  const create = h("button", { type: "button", class: "primary big", testid: "play-with-friends" }, "Play with friends");
  create.addEventListener("click", async () => {
    const who = name.value.trim();
    if (!who) {
      error.textContent = "Your name first: it is how your friends see you.";
      name.focus();
      return;
    }
    store.set("rummykit.name", who);
    error.textContent = "";
    create.disabled = true;
    try {
      const preset = options() && !options().presets[PARTY_PRESET] ? undefined : PARTY_PRESET;
      const made = await createParty({ name: who, ...(preset ? { preset } : {}) });
      store.set(partyKey(made.code), { token: made.token, member: made.member });
      location.hash = `#/party/${encodeURIComponent(made.code)}`;
    } catch (problem) {
      error.textContent = problem.message;
    } finally {
      create.disabled = false;
    }
  });
  const code = h("input", {
    id: "join-code", testid: "join-code", type: "text", maxlength: "16", autocomplete: "off",
    autocapitalize: "characters", spellcheck: false, placeholder: "Code",
  });
  const join = h("form", {
    class: "row join-code",
    onsubmit: (event) => {
      event.preventDefault();
      const wanted = cleanCode(code.value);
      if (!wanted) {
        error.textContent = "Type the code your friend read out.";
        code.focus();
        return;
      }
      location.hash = `#/party/${encodeURIComponent(wanted)}`;
    },
  },
  h("label", { for: "join-code" }, "Have a code?"), code,
  h("button", { type: "submit", testid: "join-with-code" }, "Join"));
  return h("section", { class: "panel friends", testid: "friends" },
    h("h2", {}, "Play with friends"),
    h("p", {}, "Make a party, send the link or read out its code, choose the house rules, and play at one table, two to six of you."),
    h("div", { class: "field" }, h("label", { for: "friends-name" }, "Your name"), name),
    h("div", { class: "row" }, create),
    join,
    error);
}

// Every option's title, help, values and labels come from /api/options (the options' one
// description in rummykit.core.rules): this page keeps no list of its own.

// What players read for a value of a form field: its choice's label, what null means, or the number.
function labelOf(field, value) {
  const found = field.choices.find((choice) => choice.value === value);
  if (found) return found.label;
  if (value === null) return field.none || "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

export function mountLobby(root) {
  document.title = "rummykit — new game";
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
    placeholder: "You",
  });

  const count = h(
    "select",
    { id: "opponents-count", testid: "opponents-count" },
    [1, 2, 3, 4, 5].map((n) => h("option", { value: String(n) }, String(n))),
  );
  const levelRows = [];
  const levelSelects = [];
  for (let i = 0; i < 5; i++) {
    const select = h(
      "select",
      { id: `opponent-level-${i}`, testid: `opponent-level-${i}` },
      ["basic", "strong", "expert"].map((level) => h("option", { value: level }, level)),
    );
    levelSelects.push(select);
    levelRows.push(h("div", { class: "field level-row" }, h("label", { for: select.id }, `Opponent ${i + 1}`), select));
  }
  const showLevels = () => {
    const n = Number(count.value);
    levelRows.forEach((row, i) => (row.hidden = i >= n));
  };
  count.addEventListener("change", showLevels);
  showLevels();

  // The turn timer: the server keeps the time; a turn that runs out is played by the computer.
  const turnTimer = h(
    "select",
    { id: "turn-timer", testid: "turn-timer-choice", "aria-describedby": "turn-timer-help" },
    h("option", { value: "" }, "No time limit"),
  );

  const preset = h("select", { id: "preset", testid: "preset", "aria-describedby": "preset-summary" });
  const summary = h("p", { class: "help", id: "preset-summary", testid: "preset-summary" });
  const rulesBody = h("div", { class: "rules-grid" });
  const controls = {};

  function presetInfo() {
    return options && options.presets[preset.value];
  }

  // The value an option will have: the one chosen here, else the preset's, after its ties
  // (in party, aces allowed high make an ace cost 15 unless its cost is chosen too).
  function chosen(option) {
    const control = controls[option];
    if (!control) return undefined;
    const field = control.field;
    if (control.type === "checkbox") return control.checked;
    if (control.tagName === "SELECT") {
      if (control.value !== "") return control.choices.find((v) => String(v) === control.value);
    } else if (control.noLimit && control.noLimit.checked) {
      return null;
    } else if (control.value.trim() !== "") {
      return Number(control.value);
    }
    return presetValue(option, field);
  }

  function presetValue(option, field) {
    for (const tie of presetInfo().ties) {
      if (tie.follower !== option) continue;
      const leader = chosen(tie.option);
      const pair = tie.values.find(([lead]) => lead === leader);
      if (pair) return pair[1];
    }
    return field.default;
  }

  function showDefaults() {
    for (const [option, control] of Object.entries(controls)) {
      if (control.tagName === "SELECT") control.options[0].textContent = `As the preset: ${labelOf(control.field, presetValue(option, control.field))}`;
    }
  }

  function control(field, id) {
    const described = { id, testid: id, "aria-describedby": `${id}-help` };
    if (field.kind === "boolean") {
      const box = h("input", { ...described, type: "checkbox" });
      box.checked = field.default;
      return box;
    }
    if (field.choices.length) {
      const select = h("select", described, h("option", { value: "" }, ""),
        field.choices.map((choice) => h("option", { value: String(choice.value) }, choice.label)));
      select.choices = field.choices.map((choice) => choice.value); // the JSON value behind each text
      return select;
    }
    const input = h("input", { ...described, type: "number", inputmode: "numeric", step: "1",
      min: String(field.min), max: field.max === null ? null : String(field.max),
      placeholder: field.default === null ? "" : String(field.default) });
    if (field.none !== null) {
      // The preset's own value is null: it asks for no limit, and a number sets one.
      input.noLimit = h("input", { id: `${id}-none`, testid: `${id}-none`, type: "checkbox" });
      input.noLimit.checked = field.default === null;
      input.disabled = input.noLimit.checked;
      input.noLimit.addEventListener("change", () => (input.disabled = input.noLimit.checked));
    }
    return input;
  }

  function buildRules() {
    const info = presetInfo();
    summary.textContent = info ? `${info.summary} For ${info.min_seats === info.max_seats ? info.min_seats : `${info.min_seats} to ${info.max_seats}`} players.` : "";
    for (const option of Object.keys(controls)) delete controls[option];
    fill(rulesBody);
    if (!info) return;
    for (const field of info.form) {
      const id = `rule-${field.name}`;
      const input = control(field, id);
      input.field = field;
      controls[field.name] = input;
      const help = h("p", { class: "help", id: `${id}-help` }, field.help);
      for (const tie of info.ties) if (tie.follower === field.name) help.append(` ${tie.reason}`);
      const row =
        input.type === "checkbox"
          ? h("div", { class: "field check" }, input, h("label", { for: id }, field.title))
          : h("div", { class: "field" }, h("label", { for: id }, field.title), input);
      if (input.noLimit) row.append(h("span", { class: "no-limit" }, input.noLimit, h("label", { for: input.noLimit.id }, ` ${field.none}`)));
      row.append(help);
      rulesBody.append(row);
      input.addEventListener("change", showDefaults);
    }
    showDefaults();
  }
  preset.addEventListener("change", buildRules);

  function overrides() {
    const result = {};
    for (const [option, control] of Object.entries(controls)) {
      const base = control.field.default;
      if (control.type === "checkbox") {
        if (control.checked !== base) result[option] = control.checked;
      } else if (control.tagName === "SELECT") {
        if (control.value !== "") result[option] = control.choices.find((v) => String(v) === control.value);
      } else if (control.noLimit && control.noLimit.checked) {
        if (base !== null) result[option] = null;
      } else if (control.value.trim() !== "") {
        const number = Number(control.value);
        result[option] = Number.isFinite(number) ? number : control.value;
      }
    }
    return result;
  }

  const start = h("button", { type: "submit", class: "primary big", testid: "start" }, "Deal me in");
  const practice = h("button", { type: "button", class: "big", testid: "practice" }, "Start a practice game");

  async function begin(isPractice) {
    error.textContent = "";
    const who = name.value.trim();
    store.set("rummykit.name", who);
    const n = Number(count.value);
    const body = {
      name: who || "You",
      practice: isPractice,
      preset: isPractice ? "practice" : preset.value,
      rules: isPractice ? {} : overrides(),
      opponents: isPractice ? ["strong"] : levelSelects.slice(0, n).map((s) => s.value),
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
    h("h2", {}, "A new game"),
    h("div", { class: "field" }, h("label", { for: "name" }, "Your name"), name),
    h("div", { class: "field" }, h("label", { for: "opponents-count" }, "Computer opponents"), count),
    h("fieldset", { class: "levels" }, h("legend", {}, "How well each one plays"), levelRows,
      h("p", { class: "help" }, "Basic keeps it simple, strong counts the cards it has seen, expert thinks further ahead.")),
    h("div", { class: "field" }, h("label", { for: "turn-timer" }, "Time for each of your turns"), turnTimer),
    h("p", { class: "help", id: "turn-timer-help" }, "With a limit, a clock counts down on your turn; if it runs out, the computer finishes that turn for you."),
    h("div", { class: "field" }, h("label", { for: "preset" }, "Rules"), preset),
    summary,
    h("details", { class: "house-rules", testid: "house-rules" },
      h("summary", {}, "House rules"),
      h("p", { class: "help" }, "Leave a rule on “As the preset” (or a number box empty) to keep the preset’s choice."),
      rulesBody),
    h("div", { class: "row" }, start),
    error,
  );

  const learn = h(
    "section",
    { class: "panel learn" },
    h("h2", {}, "New to Rummy?"),
    h("p", {}, "Play a practice game: you against one computer player, ten cards each. Each rule is explained in a sentence the first time it comes up, your hand's cost is always shown, and a hint is one click away."),
    practice,
  );
  practice.addEventListener("click", () => begin(true));

  fill(
    root,
    h("div", { class: "lobby" },
      h("section", { class: "intro" },
        h("h1", {}, "Rummy against the computer"),
        h("p", {}, "Draw a card, lay down sets and runs, throw one away. Empty your hand first and the cards the others still hold are your points."),
        continueBox,
        h("p", {}, h("a", { href: "#/history", testid: "history-link" }, "Past games and replays")),
        h("p", {}, h("a", { href: "#/howto", testid: "howto-link" }, t("howto.link")))),
      form,
      learn,
      friendsPanel(() => options)),
  );

  const last = store.raw(LAST_TABLE);
  const lastToken = last && store.raw(seatKey(last));
  if (last && lastToken) {
    getTable(last, lastToken)
      .then((found) => {
        if (!found || found.view.game_over) return;
        const v = found.view;
        const where = v.players.filter((_, seat) => seat !== v.seat).map((p) => (p.level ? `${p.name} (${p.level})` : p.name)).join(", ");
        fill(continueBox,
          h("a", { class: "button primary", href: `#/table/${encodeURIComponent(last)}`, testid: "continue" }, "Continue your game"),
          h("span", { class: "help" }, ` Deal ${v.deal + 1} against ${where}.`));
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
        h("option", { value: "" }, "No time limit"),
        ...options.turn_timers.map((s) => h("option", { value: String(s) }, `${s} seconds a turn`)),
      ]);
      fill(preset, Object.keys(options.presets).map((p) => h("option", { value: p }, p)));
      if (options.presets.classic) preset.value = "classic";
      buildRules();
    })
    .catch((problem) => {
      error.textContent = `The rules could not be loaded: ${problem.message}`;
    });

  return () => {};
}
