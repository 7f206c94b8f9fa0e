// The replay viewer (#/replay/ID): every position of a finished game. Step by step (buttons,
// ← →), deal by deal (a list of deals, buttons, PageUp/PageDown or [ ]), anywhere at once
// (a scrubber over every step, the deals marked on it), or played at a chosen speed (Space).
// Its review panel (review.js) judges one seat's decisions and marks the steps they were at.
import { getFrames, getShare, getTable } from "./api.js";
import { cardRow } from "./cards.js";
import { t } from "./i18n.js";
import { setPageKeys } from "./keyboard.js";
import { stepText } from "./replay/words.js";
import { seatParam } from "./review/model.js";
import { reviewPanel } from "./review.js";
import { SPEEDS, dealOf, dealStarts, knownSpeed, nextDeal, previousDeal, stepMs } from "./replay/steps.js";
import { h, fill, store, seatKey } from "./util.js";

const SPEED_KEY = "rummykit.replaySpeed";

/** Keys the focused control handles itself: a button's Space, a link's Enter. */
function ownKey(event) {
  const tag = event.target instanceof Element ? event.target.tagName : "";
  return event.key === " " && (tag === "BUTTON" || tag === "A" || tag === "SUMMARY");
}

/** The game's short link (/g/ID) with Copy, shown once the server says anyone may open it
 * (a rated game, or any where the history is public). */
function shareRow(gameId) {
  const link = `${location.origin}/g/${encodeURIComponent(gameId)}`;
  const said = h("span", { class: "help", testid: "share-copied", "aria-live": "polite" });
  const field = h("input", { type: "text", readonly: true, value: link, testid: "share-link", "aria-label": t("replay.share_label") });
  const copy = h("button", { type: "button", testid: "share-copy" }, t("replay.share_copy"));
  copy.addEventListener("click", () => {
    field.select();
    const done = () => (said.textContent = t("replay.share_copied"));
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(done, done);
    else done();
  });
  const row = h("div", { class: "replay-share", testid: "replay-share", hidden: true },
    h("p", {}, t("replay.share_text")), h("div", { class: "row" }, field, copy), said);
  getShare(gameId).then((found) => (row.hidden = !found.public), () => {});
  return row;
}

export function mountReplay(root, gameId, params = new URLSearchParams()) {
  document.title = t("replay.title");
  let frames = [];
  let players = [];
  let rules = {};
  let starts = [];
  let at = 0;
  let timer = 0;
  let speed = knownSpeed(store.get(SPEED_KEY));
  // a seat's token of the game shows its replay (not needed where the history is public)
  const token = store.raw(seatKey(gameId));
  const review = reviewPanel({
    gameId,
    token,
    go: (step) => {
      stop();
      go(step);
    },
    wanted: seatParam(params.get("review")),
    autoStart: params.has("review"),
  });

  const button = (attrs, label) => h("button", { type: "button", ...attrs }, label);
  const text = h("p", { class: "status replay-text", testid: "replay-text", "aria-live": "polite" }, t("common.loading"));
  const prevDeal = button({ class: "ghost", testid: "replay-prev-deal", "aria-keyshortcuts": "PageUp [", onclick: () => goDeal(-1) }, t("replay.prev_deal"));
  const prev = button({ testid: "replay-prev", "aria-keyshortcuts": "ArrowLeft", onclick: () => go(at - 1) }, t("replay.back"));
  const play = button({ class: "primary", testid: "replay-play", "aria-keyshortcuts": "Space", onclick: togglePlay }, t("replay.play"));
  const next = button({ testid: "replay-next", "aria-keyshortcuts": "ArrowRight", onclick: () => go(at + 1) }, t("replay.forward"));
  const nextDealButton = button({ class: "ghost", testid: "replay-next-deal", "aria-keyshortcuts": "PageDown ]", onclick: () => goDeal(1) }, t("replay.next_deal"));
  const marks = h("datalist", { id: "replay-deal-marks", testid: "replay-deal-marks" });
  const slider = h("input", {
    type: "range", id: "replay-slider", testid: "replay-slider", min: "0", max: "0", value: "0",
    list: "replay-deal-marks", "aria-label": t("replay.scrubber"),
  });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const dealSelect = h("select", { id: "replay-deal", testid: "replay-deal" });
  dealSelect.addEventListener("change", () => go(starts[Number(dealSelect.value)] ?? 0));
  const speedSelect = h("select", { id: "replay-speed", testid: "replay-speed" },
    SPEEDS.map((value) => h("option", { value: String(value), selected: value === speed }, t("replay.speed_value", { speed: value }))));
  speedSelect.addEventListener("change", () => {
    speed = knownSpeed(speedSelect.value);
    store.set(SPEED_KEY, speed);
    if (timer) schedule(); // the next step comes at the new pace
  });
  const where = h("span", { class: "help", testid: "replay-position" });
  const body = h("div", { class: "replay-body" });
  const share = shareRow(gameId);

  fill(root,
    h("section", { class: "panel replay" },
      h("h1", { testid: "replay-heading", tabindex: "-1" }, t("replay.heading")),
      h("div", { class: "replay-controls" },
        h("span", { class: "field" }, h("label", { for: "replay-deal" }, t("replay.deal_label")), dealSelect),
        h("span", { class: "field" }, h("label", { for: "replay-speed" }, t("replay.speed_label")), speedSelect),
        where),
      h("div", { class: "replay-controls" }, prevDeal, prev, play, next, nextDealButton),
      h("div", { class: "replay-controls replay-scrub" }, slider, marks),
      h("p", { class: "help replay-keys" }, t("replay.keys")),
      review.element,
      text,
      review.line,
      review.board,
      body,
      share,
      h("p", {}, h("a", { href: "#/history" }, t("replay.back_to_history")))));

  function stop() {
    clearTimeout(timer);
    timer = 0;
    play.textContent = t("replay.play");
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (at >= frames.length - 1) return stop();
      go(at + 1);
      if (timer) schedule();
    }, stepMs(speed));
  }

  function togglePlay() {
    if (!frames.length) return;
    if (timer) return stop();
    if (at >= frames.length - 1) go(0); // from the end, play from the start again
    play.textContent = t("replay.pause");
    schedule();
  }

  function go(index) {
    if (!frames.length) return;
    at = Math.max(0, Math.min(frames.length - 1, index));
    if (at === frames.length - 1) stop();
    render();
  }

  function goDeal(direction) {
    const target = direction < 0 ? previousDeal(starts, at) : nextDeal(starts, at);
    if (target !== null) go(target);
  }

  /** The controls that depend only on the game, set once it has loaded. */
  function setUp() {
    starts = dealStarts(frames);
    slider.max = String(frames.length - 1);
    fill(marks, starts.map((start) => h("option", { value: String(start) })));
    fill(dealSelect, starts.map((start, deal) =>
      h("option", { value: String(deal) }, t("replay.deal_option", { deal: frames[start].deal + 1 }))));
  }

  function render() {
    const f = frames[at];
    const deal = dealOf(starts, at);
    const position = t("replay.position", { step: at + 1, steps: frames.length, deal: f.deal + 1, deals: starts.length });
    slider.value = String(at);
    slider.setAttribute("aria-valuetext", position);
    dealSelect.value = String(deal);
    prev.disabled = at === 0;
    prevDeal.disabled = at === 0;
    next.disabled = at === frames.length - 1;
    nextDealButton.disabled = nextDeal(starts, at) === null;
    where.textContent = position;
    text.textContent = stepText(f, players, rules);
    review.show(at);
    const stock = Array.isArray(f.stock) ? f.stock.length : f.stock;
    fill(body,
      h("div", { class: "replay-seats" }, players.map((name, seat) =>
        h("div", { class: `seat${f.turn === seat && f.phase !== "over" ? " turn" : ""}`, testid: "replay-hand" },
          h("div", { class: "seat-head" }, h("strong", {}, name),
            h("span", { class: "help" }, ` ${t("replay.seat_line", { points: f.scores[seat], cards: t("common.cards", { count: f.hands[seat].length }) })}`)),
          cardRow(f.hands[seat])))),
      h("div", { class: "replay-middle" },
        h("div", { class: "replay-pile" },
          h("h2", {}, t("replay.piles", { discard: f.discard.length, stock })),
          f.discard.length ? cardRow(f.discard) : h("p", { class: "help" }, t("replay.empty"))),
        h("div", { class: "replay-melds" }, h("h2", {}, t("replay.melds")),
          f.melds.length
            ? f.melds.map((m, i) => h("div", { class: "meld" }, h("span", { class: "meld-owner" }, t("replay.meld_owner", { number: i + 1, name: players[m.owner] || "" })), cardRow(m.cards)))
            : h("p", { class: "help" }, t("replay.no_melds")))),
      h("table", { class: "replay-scores", testid: "replay-scores" },
        h("caption", { class: "sr-only" }, t("replay.scores")),
        h("tbody", {}, players.map((name, seat) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, String(f.scores[seat])))))));
  }

  setPageKeys((event) => {
    if (ownKey(event)) return false;
    const actions = {
      ArrowLeft: () => go(at - 1),
      ArrowRight: () => go(at + 1),
      Home: () => go(0),
      End: () => go(frames.length - 1),
      PageUp: () => goDeal(-1),
      "[": () => goDeal(-1),
      PageDown: () => goDeal(1),
      "]": () => goDeal(1),
      " ": togglePlay,
    };
    if (review.key(event)) return true;
    const action = Object.hasOwn(actions, event.key) && actions[event.key];
    if (!action) return false;
    action();
    return true;
  });

  // the seat this browser holds in the game, whose review is offered first
  const heldSeat = token ? getTable(gameId, token).then((answer) => answer.seat, () => null) : Promise.resolve(null);
  Promise.all([getFrames(gameId, token), heldSeat])
    .then(([found, seat]) => {
      frames = found.frames || [];
      players = found.players || [];
      rules = found.rules || {};
      if (!frames.length) {
        text.textContent = t("replay.no_steps");
        return;
      }
      setUp();
      go(0);
      review.setGame({ frames, players, starts, heldSeat: seat });
    })
    .catch((problem) => {
      text.textContent = t("replay.failed", { problem: problem.message });
    });

  return () => {
    clearTimeout(timer);
    review.stop();
  };
}
