// How to play (#/howto, #/howto/TABLEID): straight rummy in a few short sections, then every
// house rule as the rules engine describes it (area `rules`, generated from Python). For a
// table, its own rules, with the ones that differ from the standard preset marked; without
// one, any preset's.
import { getOptions, getRulesInPlay, getTable } from "./api.js";
import { cardRow } from "./cards.js";
import { has, t } from "./i18n.js";
import { DEFAULT_PRESET } from "./protocol.js";
import { presetName, ruleValueText } from "./rule_words.js";
import { h, fill, store, seatKey } from "./util.js";

/** The preset every other is compared with: the reference rules. */
const STANDARD = DEFAULT_PRESET;

/** An option's help under a preset (its own words for it, and why it follows another). */
function helpOf(preset, name) {
  const own = `rules.offer_help.${preset}.${name}`;
  const tie = `rules.tie.${preset}.${name}`;
  return [t(has(own) ? own : `rules.help.${name}`), has(tie) ? t(tie) : ""].filter(Boolean).join(" ");
}

/** The rules explained in prose, a few sentences a section; `rules` fills in its numbers. */
function prose(rules) {
  const section = (title, ...body) => h("section", { class: "howto-part" }, h("h2", {}, title), ...body);
  const p = (key, params) => h("p", {}, t(key, params));
  return [
    section(t("howto.aim_title"), p("howto.aim")),
    section(t("howto.deal_title"), p("howto.deal"), p("howto.deal_rest")),
    section(t("howto.turn_title"),
      h("ol", {}, h("li", {}, t("howto.turn_draw")), h("li", {}, t("howto.turn_play")), h("li", {}, t("howto.turn_discard")))),
    section(t("howto.melds_title"),
      p("howto.set"), h("p", { class: "howto-example" }, cardRow(["7h", "7s", "7d"], false)),
      p("howto.run"), h("p", { class: "howto-example" }, cardRow(["4c", "5c", "6c", "7c"], false)),
      p("howto.layoff")),
    section(t("howto.out_title"), p("howto.out"), p("howto.points", { ace: rules.ace_points, target: rules.target }), p("howto.rummy")),
    section(t("howto.stock_title"), p("howto.stock")),
  ];
}

/** Every option of `rules` under `preset`, the ones unlike the standard preset's marked. */
function rulesTable(options, preset, rules) {
  const standard = options.presets[STANDARD] ? options.presets[STANDARD].rules : rules;
  return h("table", { class: "howto-rules", testid: "howto-rules" },
    h("caption", { class: "sr-only" }, t("howto.rules_caption")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("howto.col_rule")),
      h("th", { scope: "col" }, t("howto.col_value")),
      h("th", { scope: "col" }, t("howto.col_meaning")))),
    h("tbody", {}, options.options.map(({ name }) => {
      const value = rules[name];
      const differs = standard[name] !== value;
      return h("tr", { class: differs ? "differs" : "", testid: "howto-rule", "data-option": name, "data-differs": String(differs) },
        h("th", { scope: "row" }, t(`rules.option.${name}`),
          differs ? h("span", { class: "badge house-rule" }, t("howto.house_rule")) : null),
        h("td", {}, ruleValueText(preset, name, value),
          differs ? h("span", { class: "help" }, ` ${t("howto.standard_is", { value: ruleValueText(STANDARD, name, standard[name]) })}`) : null),
        h("td", { class: "help" }, helpOf(preset, name)));
    })));
}

export function mountHowto(root, tableId) {
  document.title = t("howto.title");
  const about = h("p", { class: "help", testid: "howto-about" });
  const note = h("p", { class: "help", testid: "howto-no-seat", hidden: true }, t("howto.no_seat"));
  const rulesBox = h("div", { class: "howto-rules-box" }, h("p", { class: "loading" }, t("common.loading")));
  const presetSelect = h("select", { id: "howto-preset", testid: "howto-preset" });
  const presetField = h("div", { class: "field", hidden: true }, h("label", { for: "howto-preset" }, t("howto.preset_label")), presetSelect);
  const proseBox = h("div", { class: "howto-prose" });
  const back = tableId
    ? h("a", { class: "button", href: `#/table/${encodeURIComponent(tableId)}`, testid: "howto-back" }, t("howto.back_to_table"))
    : h("a", { class: "button", href: "#/", testid: "howto-back" }, t("common.to_lobby"));

  fill(root,
    h("article", { class: "panel howto", testid: "howto" },
      h("h1", {}, t("howto.heading")),
      h("p", {}, t("howto.intro")),
      proseBox,
      h("section", { class: "howto-part", "aria-labelledby": "howto-rules-title" },
        h("h2", { id: "howto-rules-title", testid: "howto-rules-title" }, t(tableId ? "howto.table_rules_title" : "howto.rules_title")),
        note,
        presetField,
        about,
        rulesBox),
      h("p", {}, back)));

  let options = null;

  /** The rules of `preset` (a table's, dealt to `seats` players; else the preset alone). */
  async function show(preset, rules, seats) {
    fill(proseBox, prose(rules));
    const summary = has(`rules.preset.${preset}`) ? t(`rules.preset.${preset}`) : "";
    about.textContent = t("howto.preset_about", { preset: presetName(preset), summary });
    fill(rulesBox, rulesTable(options, preset, rules));
    if (!seats) return;
    // the cards each player holds: the server's to count (POST /api/rules)
    const made = await getRulesInPlay(preset, rules);
    const cards = made.hands[String(seats)];
    if (cards) about.textContent = t("howto.table_about", { preset: presetName(preset), summary, players: seats, cards });
  }

  function showPreset(name) {
    presetField.hidden = false;
    presetSelect.value = name;
    show(name, options.presets[name].rules, 0);
  }

  presetSelect.addEventListener("change", () => showPreset(presetSelect.value));

  async function load() {
    options = await getOptions();
    fill(presetSelect, Object.keys(options.presets).map((name) => h("option", { value: name }, presetName(name))));
    const token = tableId ? store.raw(seatKey(tableId)) : null;
    // a table this browser holds no seat of (or one the server forgot): the presets instead
    const found = token ? await getTable(tableId, token).catch(() => null) : null;
    if (found) {
      await show(found.view.preset, found.view.rules, found.view.players.length);
      return;
    }
    note.hidden = !tableId;
    showPreset(options.presets[STANDARD] ? STANDARD : Object.keys(options.presets)[0]);
  }

  load().catch((problem) => {
    fill(rulesBox, h("p", { class: "error", role: "alert" }, t("howto.failed", { problem: problem.message })));
  });
  return () => {};
}
