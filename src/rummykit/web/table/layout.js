// The table page's fixed parts, built once: the render modules fill them, and each control
// calls one of the intents (intents.js).
import { t } from "../i18n.js";
import { h, fill, setting } from "../util.js";

function button(attrs, ...children) {
  return h("button", { type: "button", ...attrs }, ...children);
}

/** Build the page in `root`; the parts by name. */
export function buildLayout(root, intents) {
  const p = {
    opponents: h("div", { class: "opponents", role: "group", "aria-label": "Other players" }),
    stock: button({ class: "pile stock", testid: "stock", "aria-keyshortcuts": "S", onclick: intents.drawStock }),
    discard: button({ class: "pile discard", testid: "discard", "aria-keyshortcuts": "T", onclick: () => intents.drawDiscard(1) }),
    pileToggle: button({ class: "ghost small-btn", testid: "discard-pile-toggle", "aria-expanded": "false", "aria-controls": "discard-pile", onclick: intents.togglePile }),
    pilePanel: h("div", { class: "discard-pile", id: "discard-pile", testid: "discard-pile", hidden: true }),
    melds: h("div", { class: "melds", testid: "melds", role: "group", "aria-label": "Melds on the table" }),
    status: h("p", { class: "status", testid: "status", "aria-live": "polite", role: "status" }, "Connecting to the table…"),
    turnTimer: h("p", { class: "turn-timer", testid: "turn-timer", hidden: true }),
    message: h("p", { class: "message", testid: "message", role: "alert" }),
    hint: h("p", { class: "hint", testid: "hint", "aria-live": "polite", hidden: true }),
    explain: h("section", { class: "explain", testid: "explain", "aria-live": "polite", hidden: true }),
    mySeat: h("div", { class: "seat me", testid: "seat" }),
    handValue: h("span", { class: "hand-value", testid: "hand-value" }),
    hand: h("div", { class: "hand", testid: "hand", role: "group", "aria-label": "Your hand" }),
    sortSuit: button({ class: "ghost small-btn", testid: "sort-suit", onclick: () => intents.sortBy("suit") }, t("hand.sort_suit")),
    sortRank: button({ class: "ghost small-btn", testid: "sort-rank", onclick: () => intents.sortBy("rank") }, t("hand.sort_rank")),
    meldButton: button({ testid: "meld-button", "aria-keyshortcuts": "M", onclick: intents.meldSelected }, "Meld", h("kbd", {}, "M")),
    layoffButton: button({ testid: "layoff-button", "aria-keyshortcuts": "L", onclick: intents.layoffSelected }, "Lay off", h("kbd", {}, "L")),
    discardButton: button({ testid: "discard-button", "aria-keyshortcuts": "D", onclick: () => intents.discardSelected(false) }, "Discard", h("kbd", {}, "D")),
    hintButton: button({ class: "ghost", testid: "hint-button", "aria-keyshortcuts": "H", onclick: intents.askHint }, "Hint", h("kbd", {}, "H")),
    showSummary: button({ class: "primary", hidden: true, onclick: intents.showSummary }, "Show the deal's result"),
    scoreboard: h("section", { class: "panel scoreboard", testid: "scoreboard", "aria-label": "Scores" }),
    log: h("ol", { class: "log", testid: "log", role: "log", "aria-label": "What happened" }),
    paceOut: h("output", { for: "pace" }),
    pace: h("input", { type: "range", id: "pace", testid: "pace", min: "0", max: "3000", step: "100", value: "700" }),
    fourColour: h("input", { type: "checkbox", id: "four-colour", testid: "four-colour", checked: setting("fourColour") }),
    largeCards: h("input", { type: "checkbox", id: "large-cards", testid: "large-cards", checked: setting("largeCards") }),
    newDeal: button({ class: "ghost", testid: "new-deal", onclick: intents.redeal }, "New deal"),
    newGame: button({ class: "ghost", testid: "new-game", onclick: intents.newGame }, "New game"),
    leave: button({ class: "ghost", testid: "leave-table", hidden: true, onclick: intents.leave }, "Leave for good"),
    reactions: h("div", { class: "reactions", testid: "reactions", role: "group", "aria-label": "Quick reactions" }),
    reactionNote: h("span", { class: "reaction-note", testid: "reaction-note", "aria-live": "polite" }),
    watchBadge: h("p", { class: "badge watching-badge", testid: "watching-badge", hidden: true }, "Watching"),
    choice: h("dialog", { class: "choice", "aria-labelledby": "choice-title" }),
    gameOver: h("section", { class: "game-over", testid: "game-over", "aria-live": "polite" }),
    overSlot: h("div", { class: "over-slot" }),
    summary: h("dialog", { class: "summary", testid: "deal-summary", "aria-labelledby": "summary-title" }),
  };
  p.reactionBar = h("div", { class: "reaction-bar", hidden: true }, p.reactions, p.reactionNote);
  p.pace.addEventListener("input", () => (p.paceOut.textContent = `${p.pace.value} ms`));
  p.pace.addEventListener("change", () => intents.setPace(Number(p.pace.value)));
  p.fourColour.addEventListener("change", () => setting("fourColour", p.fourColour.checked));
  p.largeCards.addEventListener("change", () => setting("largeCards", p.largeCards.checked));
  p.summary.addEventListener("cancel", intents.summaryCancelled);

  p.page = h("div", { class: "table-page" },
    h("section", { class: "board", "aria-label": "The table" },
      p.watchBadge,
      p.opponents,
      h("div", { class: "middle" },
        h("div", { class: "piles" },
          p.stock,
          h("div", { class: "discard-wrap" }, p.discard, p.pileToggle)),
        p.melds),
      p.pilePanel,
      p.overSlot,
      p.status,
      p.turnTimer,
      p.message,
      p.reactionBar,
      p.hint,
      p.explain,
      h("div", { class: "my-bar" }, p.mySeat,
        h("span", { class: "sorts", role: "group", "aria-label": t("hand.sort_group") }, t("hand.sort"), " ", p.sortSuit, p.sortRank)),
      p.hand,
      h("div", { class: "actions" }, p.meldButton, p.layoffButton, p.discardButton, p.hintButton, p.showSummary)),
    h("aside", { class: "side" },
      p.scoreboard,
      h("section", { class: "panel" },
        h("h2", {}, "What happened"),
        p.log),
      h("section", { class: "panel settings" },
        h("h2", {}, "Table"),
        h("div", { class: "row" }, p.newDeal, p.newGame, p.leave),
        h("div", { class: "field" }, h("label", { for: "pace" }, "Computer's pace "), p.paceOut, p.pace),
        h("div", { class: "field check" }, p.fourColour, h("label", { for: "four-colour" }, "Four-colour deck")),
        h("div", { class: "field check" }, p.largeCards, h("label", { for: "large-cards" }, "Large cards")))));
  fill(root, p.page, p.choice, p.summary);
  return p;
}
