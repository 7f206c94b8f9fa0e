// The lobby (#/): who you play, under which rules; continue a game; start a practice game.
import { createTable, getOptions, getTable } from "./api.js";
import { h, fill, store, seatKey, LAST_TABLE } from "./util.js";

const TITLES = {
  hand_size: "Cards dealt",
  decks: "Decks",
  jokers: "Jokers",
  aces: "Aces in runs",
  ace_points: "An ace left in hand costs",
  layoff: "Laying off",
  melds_per_turn: "New melds per turn",
  go_out: "Going out",
  rummy_bonus: "Going rummy pays",
  scoring: "Scoring",
  target: "Points to win",
  deals: "Fixed number of deals",
  renew: "When the stock runs out",
  renewals: "New stocks per deal",
  blocked: "A blocked deal",
  empty_stock_choice: "Take the top discard instead of a new stock",
  discard_take: "Taking from the discard pile",
  dealer: "Who deals next",
  joker_points: "A joker left in hand costs",
};

// Every value the server accepts for its choice options, with our label for each.
const CHOICES = {
  hand_size: [["by_seats", "By table size"], [6, "6"], [7, "7"], [8, "8"], [9, "9"], [10, "10"]],
  decks: [[1, "One"], [2, "Two"]],
  aces: [["low", "Low only (A-2-3)"], ["low_or_high", "Low or high (Q-K-A too)"], ["around", "Round the corner (K-A-2 too)"]],
  ace_points: [[1, "1 point"], [11, "11 points"], [15, "15 points"]],
  layoff: [["anytime", "Any time"], ["after_meld", "Once you have melded this deal"], ["turn_after_meld", "From the turn after your first meld"]],
  go_out: [["any", "Any way"], ["discard", "Only with a last discard"]],
  rummy_bonus: [["none", "Nothing extra"], ["double", "Double"], ["plus10", "10 more points"]],
  scoring: [["winner", "The winner collects"], ["penalty", "Penalty points, lowest wins"]],
  renew: [["flip", "Turn the pile over"], ["shuffle", "Shuffle the pile"], ["shuffle_keep_top", "Shuffle all but the top card"], ["none", "Nothing: the deal is blocked"]],
  blocked: [["no_score", "Nobody scores"], ["lowest_collects", "Cheapest hand collects the difference"]],
  discard_take: [["top", "The top card only"], ["any", "Any card, with all above it"]],
  dealer: [["left", "The player on the left"], ["winner", "The winner of the deal"]],
};

const NUMBER_LIMITS = { jokers: [0, 4], melds_per_turn: [0], target: [1], deals: [1], renewals: [0], joker_points: [0] };

function labelOf(name, value) {
  const found = (CHOICES[name] || []).find(([v]) => v === value);
  if (found) return found[1];
  if (value === null) return "none";
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

  const preset = h("select", { id: "preset", testid: "preset", "aria-describedby": "preset-summary" });
  const summary = h("p", { class: "help", id: "preset-summary", testid: "preset-summary" });
  const rulesBody = h("div", { class: "rules-grid" });
  const controls = {};

  function presetRules() {
    return options && options.presets[preset.value] ? options.presets[preset.value].rules : {};
  }

  function buildRules() {
    const all = Object.values(options.presets).map((p) => p.rules);
    for (const spec of options.options) {
      const { name: option, help } = spec;
      const base = presetRules()[option];
      const id = `rule-${option}`;
      let control;
      let noLimit = null;
      if (typeof base === "boolean") {
        control = h("input", { id, testid: id, type: "checkbox", "aria-describedby": `${id}-help` });
      } else if (spec.type === "choice" || spec.choices || CHOICES[option] || typeof base === "string") {
        // The server says which values it takes; a number range beside choices is spelt out.
        const values = [...(spec.choices || (CHOICES[option] || []).map(([v]) => v))];
        if (spec.type === "number" && spec.max !== null && spec.max !== undefined)
          for (let n = spec.min; n <= spec.max; n++) if (!values.includes(n)) values.push(n);
        for (const rules of all) if (!values.includes(rules[option]) && rules[option] !== null) values.push(rules[option]);
        control = h(
          "select",
          { id, testid: id, "aria-describedby": `${id}-help` },
          h("option", { value: "" }, "As the preset"),
          values.map((v) => h("option", { value: String(v) }, labelOf(option, v))),
        );
        control.choices = values; // the JSON value behind each option's text
      } else {
        const [min, max] =
          spec.type === "number" ? [spec.min, spec.max === null ? undefined : spec.max] : NUMBER_LIMITS[option] || [0];
        control = h("input", { id, testid: id, type: "number", inputmode: "numeric", min: String(min), max: max === undefined ? null : String(max), step: "1", "aria-describedby": `${id}-help` });
        if (spec.nullable) {
          noLimit = h("input", { id: `${id}-none`, testid: `${id}-none`, type: "checkbox" });
          noLimit.addEventListener("change", () => (control.disabled = noLimit.checked));
          control.noLimit = noLimit;
        }
      }
      controls[option] = control;
      const title = TITLES[option] || option.replace(/_/g, " ");
      const field =
        control.type === "checkbox"
          ? h("div", { class: "field check" }, control, h("label", { for: id }, title))
          : h("div", { class: "field" }, h("label", { for: id }, title), control);
      if (noLimit) field.append(h("span", { class: "no-limit" }, noLimit, h("label", { for: noLimit.id }, " No limit")));
      field.append(h("p", { class: "help", id: `${id}-help` }, help));
      rulesBody.append(field);
    }
  }

  function showPreset() {
    const info = options.presets[preset.value];
    summary.textContent = info ? `${info.summary} For ${info.min_seats === info.max_seats ? info.min_seats : `${info.min_seats} to ${info.max_seats}`} players.` : "";
    const base = presetRules();
    for (const [option, control] of Object.entries(controls)) {
      const value = base[option];
      if (control.type === "checkbox") control.checked = !!value;
      else if (control.tagName === "SELECT") control.options[0].textContent = `As the preset: ${labelOf(option, value)}`;
      else control.placeholder = value === null || value === undefined ? "none" : String(value);
    }
  }
  preset.addEventListener("change", showPreset);

  function overrides() {
    const base = presetRules();
    const result = {};
    for (const [option, control] of Object.entries(controls)) {
      if (control.type === "checkbox") {
        if (control.checked !== !!base[option]) result[option] = control.checked;
      } else if (control.tagName === "SELECT") {
        if (control.value !== "") result[option] = control.choices.find((v) => String(v) === control.value);
      } else if (control.noLimit && control.noLimit.checked) {
        if (base[option] !== null) result[option] = null;
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
        h("p", {}, h("a", { href: "#/history", testid: "history-link" }, "Past games and replays"))),
      form,
      learn),
  );

  const last = store.raw(LAST_TABLE);
  const lastToken = last && store.raw(seatKey(last));
  if (last && lastToken) {
    getTable(last, lastToken)
      .then((found) => {
        if (!found || found.view.game_over) return;
        const v = found.view;
        const where = v.players.filter((p) => p.position !== "You").map((p) => `${p.position} (${p.level || p.kind})`).join(", ");
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
      fill(preset, Object.keys(options.presets).map((p) => h("option", { value: p }, p)));
      if (options.presets.classic) preset.value = "classic";
      buildRules();
      showPreset();
    })
    .catch((problem) => {
      error.textContent = `The rules could not be loaded: ${problem.message}`;
    });

  return () => {};
}
