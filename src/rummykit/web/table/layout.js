// The table page's fixed parts, built once: the render modules fill them, and each control
// calls one of the intents (intents.js).
//
// The board is one screen high and its rows never change size with what they say: the
// other seats at the top, the piles and the melds in the middle (which takes the room left
// and scrolls inside), then a status strip of fixed height, your seat, your hand and the
// action buttons at the bottom. Messages, the hint, the whole discard pile and the practice
// explanations float over the middle (the "notices" layer), so nothing that appears during
// a turn moves your hand or the buttons.
import { t } from "../i18n.js";
import { h, fill, setting } from "../util.js";
import { DEFAULT_PACE_MS, MAX_PACE_MS, TABLE_HINT_LEVELS } from "../protocol.js";
import { hintLevel, setHintLevel } from "./state.js";

function button(attrs, ...children) {
  return h("button", { type: "button", ...attrs }, ...children);
}

/** Build the page in `root`; the parts by name. */
export function buildLayout(root, intents) {
  const p = {
    opponents: h("div", { class: "opponents", role: "group", "aria-label": t("table.others_label") }),
    stock: button({ class: "pile stock", testid: "stock", "aria-keyshortcuts": "S", onclick: intents.drawStock }),
    discard: button({ class: "pile discard", testid: "discard", "aria-keyshortcuts": "T", onclick: () => intents.drawDiscard(1) }),
    pileToggle: button({ class: "ghost small-btn", testid: "discard-pile-toggle", "aria-expanded": "false", "aria-controls": "discard-pile", onclick: intents.togglePile }),
    pilePanel: h("div", { class: "discard-pile", id: "discard-pile", testid: "discard-pile", hidden: true }),
    melds: h("div", { class: "melds", testid: "melds", role: "group", "aria-label": t("table.melds_label") }),
    status: h("p", { class: "status", testid: "status", "aria-live": "polite", role: "status" }, t("table.connecting")),
    turnTimer: h("p", { class: "turn-timer", testid: "turn-timer", hidden: true }),
    message: h("p", { class: "message", testid: "message", role: "alert" }),
    hint: h("p", { class: "hint", testid: "hint", "aria-live": "polite", hidden: true }),
    explain: h("section", { class: "explain", testid: "explain", "aria-live": "polite", hidden: true }),
    mySeat: h("div", { class: "seat me", testid: "seat" }),
    handValue: h("span", { class: "hand-value", testid: "hand-value" }),
    hand: h("div", { class: "hand", testid: "hand", role: "group", "aria-label": t("table.hand_label") }),
    sortSuit: button({ class: "ghost small-btn", testid: "sort-suit", onclick: () => intents.sortBy("suit") }, t("hand.sort_suit")),
    sortRank: button({ class: "ghost small-btn", testid: "sort-rank", onclick: () => intents.sortBy("rank") }, t("hand.sort_rank")),
    meldButton: button({ testid: "meld-button", "aria-keyshortcuts": "M", onclick: intents.meldSelected }, t("table.meld"), h("kbd", {}, "M")),
    layoffButton: button({ testid: "layoff-button", "aria-keyshortcuts": "L", onclick: intents.layoffSelected }, t("table.lay_off"), h("kbd", {}, "L")),
    discardButton: button({ testid: "discard-button", "aria-keyshortcuts": "D", onclick: () => intents.discardSelected(false) }, t("table.discard"), h("kbd", {}, "D")),
    // knock rummy only (shown by renderButtons): throw the selected card and end the deal
    knockButton: button({ testid: "knock-button", "aria-keyshortcuts": "K", hidden: true, onclick: () => intents.knockSelected(false) }, t("table.knock"), h("kbd", {}, "K")),
    hintButton: button({ class: "ghost", testid: "hint-button", "aria-keyshortcuts": "H", onclick: intents.askHint }, t("table.hint"), h("kbd", {}, "H")),
    showSummary: button({ class: "primary", hidden: true, onclick: intents.showSummary }, t("table.show_result")),
    scoreboard: h("section", { class: "panel scoreboard", testid: "scoreboard", "aria-label": t("table.scores_label") }),
    // focusable: a long log scrolls, and a keyboard must be able to scroll it (WCAG 2.1.1)
    log: h("ol", { class: "log", testid: "log", tabindex: "0", "aria-live": "polite", "aria-label": t("table.log_title") }),
    paceOut: h("output", { for: "pace" }),
    pace: h("input", { type: "range", id: "pace", testid: "pace", min: "0", max: String(MAX_PACE_MS), step: "100", value: String(DEFAULT_PACE_MS) }),
    fourColour: h("input", { type: "checkbox", id: "four-colour", testid: "four-colour", checked: setting("fourColour") }),
    largeCards: h("input", { type: "checkbox", id: "large-cards", testid: "large-cards", checked: setting("largeCards") }),
    hintLevel: h("select", { id: "hint-level", testid: "hint-level" },
      ...TABLE_HINT_LEVELS.map((level) => h("option", { value: level, selected: level === hintLevel() }, t(`common.level.${level}`)))),
    newDeal: button({ class: "ghost", testid: "new-deal", onclick: intents.redeal }, t("table.new_deal")),
    newGame: button({ class: "ghost", testid: "new-game", onclick: intents.newGame }, t("table.new_game")),
    leave: button({ class: "ghost", testid: "leave-table", hidden: true, onclick: intents.leave }, t("table.leave")),
    reactions: h("div", { class: "reactions", testid: "reactions", role: "group", "aria-label": t("table.reactions_label") }),
    reactionNote: h("span", { class: "reaction-note", testid: "reaction-note", "aria-live": "polite" }),
    watchBadge: h("p", { class: "badge watching-badge", testid: "watching-badge", hidden: true }, t("table.watching")),
    choice: h("dialog", { class: "choice", "aria-labelledby": "choice-title" }),
    gameOver: h("section", { class: "game-over", testid: "game-over", "aria-live": "polite" }),
    overSlot: h("div", { class: "over-slot" }),
    summary: h("dialog", { class: "summary", testid: "deal-summary", "aria-labelledby": "summary-title" }),
  };
  p.reactionBar = h("div", { class: "reaction-bar", hidden: true }, p.reactions, p.reactionNote);
  p.pace.addEventListener("input", () => (p.paceOut.textContent = t("table.pace_ms", { ms: p.pace.value })));
  p.pace.addEventListener("change", () => intents.setPace(Number(p.pace.value)));
  p.fourColour.addEventListener("change", () => setting("fourColour", p.fourColour.checked));
  p.largeCards.addEventListener("change", () => setting("largeCards", p.largeCards.checked));
  p.hintLevel.addEventListener("change", () => setHintLevel(p.hintLevel.value));
  p.summary.addEventListener("cancel", intents.summaryCancelled);

  p.notices = h("div", { class: "notices", testid: "notices" }, p.pilePanel, p.overSlot, p.explain, p.hint, p.message);
  p.handZone = h("div", { class: "hand-zone", testid: "hand-zone" },
    h("div", { class: "my-bar" }, p.mySeat,
      h("span", { class: "sorts", role: "group", "aria-label": t("hand.sort_group") }, p.sortSuit, p.sortRank)),
    p.hand);
  p.board = h("section", { class: "board", "aria-label": t("table.board_label") },
    p.watchBadge,
    p.opponents,
    h("div", { class: "middle" },
      h("div", { class: "piles" },
        p.stock,
        h("div", { class: "discard-wrap" }, p.discard, p.pileToggle)),
      p.melds,
      p.notices),
    h("div", { class: "status-strip" }, p.status, p.turnTimer),
    p.reactionBar,
    p.handZone,
    h("div", { class: "actions" }, p.meldButton, p.layoffButton, p.discardButton, p.knockButton, p.hintButton, p.showSummary));
  // hints come at tables against the computer only: render.js hides this with the button
  p.hintField = h("div", { class: "field" }, h("label", { for: "hint-level" }, t("table.hint_level"), " "), p.hintLevel);
  p.page = h("div", { class: "table-page" },
    p.board,
    h("aside", { class: "side" },
      p.scoreboard,
      h("section", { class: "panel" },
        h("h2", {}, t("table.log_title")),
        p.log),
      h("section", { class: "panel settings" },
        h("h2", {}, t("table.settings_title")),
        h("div", { class: "row" }, p.newDeal, p.newGame, p.leave),
        h("div", { class: "field" }, h("label", { for: "pace" }, t("table.pace"), " "), p.paceOut, p.pace),
        h("div", { class: "field check" }, p.fourColour, h("label", { for: "four-colour" }, t("table.four_colour"))),
        h("div", { class: "field check" }, p.largeCards, h("label", { for: "large-cards" }, t("table.large_cards"))),
        p.hintField)));
  fill(root, p.page, p.choice, p.summary);
  return p;
}
