// The table (#/table/ID): your seat's view, kept live over the WebSocket.
import { Connection, getTable } from "./api.js";
import { bare, cardBack, cardFace, cardName, cardRow, parse, short, sortKey } from "./cards.js";
import { setPageKeys } from "./keyboard.js";
import { Topics, TOPIC_TITLES, explainTopic } from "./practice.js";
import { h, fill, plural, store, seatKey, setting, LAST_TABLE } from "./util.js";

const LOG_LIMIT = 200;

/** Words for an action text from `legal` or a hint: "lay off 7♥ on meld 2". */
function describe(action, view) {
  const words = action.split(" ");
  switch (words[0]) {
    case "draw":
      if (words[1] === "stock") return "draw from the stock";
      if (words[2] && words[2] !== "1") return `take the top ${words[2]} cards of the discard pile`;
      return view && view.discard.length ? `take the ${short(view.discard.at(-1))}` : "take the top discard";
    case "meld":
      return "meld " + words.slice(1).map(short).join(" ");
    case "layoff":
      return `lay off the ${short(words[1])} on meld ${Number(words[2]) + 1}`;
    case "discard":
      return `discard the ${short(words[1])}`;
    default:
      return action;
  }
}

export function mountTable(root, tableId) {
  document.title = "rummykit — table";
  const token = store.raw(seatKey(tableId));
  if (!token) {
    fill(root, h("section", { class: "panel notice" },
      h("h1", {}, "No seat here"),
      h("p", {}, "This browser holds no seat at that table. Start a new game from the lobby."),
      h("a", { class: "button primary", href: "#/" }, "To the lobby")));
    return () => {};
  }
  store.setRaw(LAST_TABLE, tableId);

  const S = {
    view: null,
    version: -1,
    selected: new Set(), // keys "7h#0" (the first 7♥ in the hand)
    sort: store.get("rummykit.sort", "rank"),
    pileOpen: false,
    notes: {}, // seat -> {text, flash}
    flash: null, // {kind: "discard"|"meld", meld}
    fresh: new Set(),
    summaryClosed: null, // deal number whose summary was put away
    hint: null,
    topics: null,
    choice: null,
    loggedDeal: null,
  };
  const conn = new Connection(tableId, token, {
    message: onMessage,
    open: () => {
      setConn("Connected", "ok");
      if (S.view) refetch();
    },
    closed: (wait) => setConn(`Connection lost; trying again in ${Math.round(wait / 100) / 10} s…`, "bad"),
    noSeat: () => noSeat(),
  });

  // ----- the page's fixed parts -----------------------------------------------------

  const opponents = h("div", { class: "opponents", role: "group", "aria-label": "Other players" });
  const stockBtn = h("button", { type: "button", class: "pile stock", testid: "stock", "aria-keyshortcuts": "S", onclick: () => act("draw stock") });
  const discardBtn = h("button", { type: "button", class: "pile discard", testid: "discard", "aria-keyshortcuts": "T", onclick: () => drawDiscard(1) });
  const pileToggle = h("button", { type: "button", class: "ghost small-btn", testid: "discard-pile-toggle", "aria-expanded": "false", "aria-controls": "discard-pile", onclick: () => { S.pileOpen = !S.pileOpen; render(); } });
  const pilePanel = h("div", { class: "discard-pile", id: "discard-pile", testid: "discard-pile", hidden: true });
  const melds = h("div", { class: "melds", testid: "melds", role: "group", "aria-label": "Melds on the table" });
  const status = h("p", { class: "status", testid: "status", "aria-live": "polite", role: "status" }, "Connecting to the table…");
  const message = h("p", { class: "message", testid: "message", role: "alert" });
  const hintBox = h("p", { class: "hint", testid: "hint", "aria-live": "polite", hidden: true });
  const explain = h("section", { class: "explain", testid: "explain", "aria-live": "polite", hidden: true });
  const mySeat = h("div", { class: "seat me", testid: "seat" });
  const handValue = h("span", { class: "hand-value", testid: "hand-value" });
  const hand = h("div", { class: "hand", testid: "hand", role: "group", "aria-label": "Your hand" });
  const sortSuit = h("button", { type: "button", class: "ghost small-btn", testid: "sort-suit", onclick: () => sortBy("suit") }, "By suit");
  const sortRank = h("button", { type: "button", class: "ghost small-btn", testid: "sort-rank", onclick: () => sortBy("rank") }, "By rank");
  const meldBtn = h("button", { type: "button", testid: "meld-button", "aria-keyshortcuts": "M", onclick: meldSelected }, "Meld", h("kbd", {}, "M"));
  const layoffBtn = h("button", { type: "button", testid: "layoff-button", "aria-keyshortcuts": "L", onclick: layoffSelected }, "Lay off", h("kbd", {}, "L"));
  const discardAct = h("button", { type: "button", testid: "discard-button", "aria-keyshortcuts": "D", onclick: () => discardSelected(false) }, "Discard", h("kbd", {}, "D"));
  const hintBtn = h("button", { type: "button", class: "ghost", testid: "hint-button", "aria-keyshortcuts": "H", onclick: askHint }, "Hint", h("kbd", {}, "H"));
  const showSummary = h("button", { type: "button", class: "primary", hidden: true, onclick: () => { S.summaryClosed = null; render(); } }, "Show the deal's result");
  const scoreboard = h("section", { class: "panel scoreboard", testid: "scoreboard", "aria-label": "Scores" });
  const log = h("ol", { class: "log", testid: "log", role: "log", "aria-label": "What happened" });
  const paceOut = h("output", { for: "pace" });
  const pace = h("input", { type: "range", id: "pace", testid: "pace", min: "0", max: "3000", step: "100", value: "700" });
  pace.addEventListener("input", () => (paceOut.textContent = `${pace.value} ms`));
  pace.addEventListener("change", () => conn.send("pace", { ms: Number(pace.value) }));
  const fourColour = h("input", { type: "checkbox", id: "four-colour", testid: "four-colour", checked: setting("fourColour") });
  fourColour.addEventListener("change", () => setting("fourColour", fourColour.checked));
  const largeCards = h("input", { type: "checkbox", id: "large-cards", testid: "large-cards", checked: setting("largeCards") });
  largeCards.addEventListener("change", () => setting("largeCards", largeCards.checked));
  const newDeal = h("button", { type: "button", class: "ghost", testid: "new-deal", onclick: redeal }, "New deal");
  const newGame = h("button", { type: "button", class: "ghost", testid: "new-game", onclick: () => (location.hash = "#/") }, "New game");
  const choice = h("dialog", { class: "choice", "aria-labelledby": "choice-title" });
  choice.addEventListener("close", () => (S.choice = null));
  const gameOver = h("section", { class: "game-over", testid: "game-over", "aria-live": "polite" });
  const overSlot = h("div", { class: "over-slot" });
  const summary = h("dialog", { class: "summary", testid: "deal-summary", "aria-labelledby": "summary-title" });
  summary.addEventListener("cancel", () => {
    S.summaryClosed = S.view ? S.view.deal : null;
    setTimeout(render);
  });

  fill(root,
    h("div", { class: "table-page" },
      h("section", { class: "board", "aria-label": "The table" },
        opponents,
        h("div", { class: "middle" },
          h("div", { class: "piles" },
            stockBtn,
            h("div", { class: "discard-wrap" }, discardBtn, pileToggle)),
          melds),
        pilePanel,
        overSlot,
        status,
        message,
        hintBox,
        explain,
        h("div", { class: "my-bar" }, mySeat,
          h("span", { class: "sorts", role: "group", "aria-label": "Sort your hand" }, "Sort ", sortSuit, sortRank)),
        hand,
        h("div", { class: "actions" }, meldBtn, layoffBtn, discardAct, hintBtn, showSummary)),
      h("aside", { class: "side" },
        scoreboard,
        h("section", { class: "panel" },
          h("h2", {}, "What happened"),
          log),
        h("section", { class: "panel settings" },
          h("h2", {}, "Table"),
          h("div", { class: "row" }, newDeal, newGame),
          h("div", { class: "field" }, h("label", { for: "pace" }, "Computer's pace "), paceOut, pace),
          h("div", { class: "field check" }, fourColour, h("label", { for: "four-colour" }, "Four-colour deck")),
          h("div", { class: "field check" }, largeCards, h("label", { for: "large-cards" }, "Large cards"))))),
    choice,
    summary);

  // ----- talking to the server -------------------------------------------------------

  function setConn(text, kind) {
    const el = document.getElementById("conn");
    if (!el) return;
    el.textContent = text;
    el.dataset.state = kind;
  }

  function noSeat() {
    conn.stop();
    if (store.raw(LAST_TABLE) === tableId) store.remove(LAST_TABLE);
    fill(root, h("section", { class: "panel notice" },
      h("h1", {}, "No seat at this table"),
      h("p", {}, "The server does not know this seat any more. Start a new game from the lobby."),
      h("a", { class: "button primary", href: "#/" }, "To the lobby")));
  }

  function refetch() {
    getTable(tableId, token)
      .then((found) => {
        if (found.version > conn.version) conn.version = found.version;
        takeView(found.view, found.version);
      })
      .catch((problem) => {
        if (problem.status === 404) noSeat();
      });
  }

  function onMessage(msg) {
    if (msg.t === "view") takeView(msg.d, msg.v);
    else if (msg.t === "event") takeEvent(msg.d);
    else if (msg.t === "refused") {
      S.redealing = false;
      say(msg.d.message);
    } else if (msg.t === "hint") {
      S.hint = { ...msg.d, version: msg.v };
      render();
    }
  }

  function say(text) {
    message.textContent = text || "";
  }

  function send(type, data) {
    say("");
    if (!conn.send(type, data)) say("Not connected to the table yet; trying again shortly.");
  }

  function act(action) {
    send("act", { action });
  }

  // ----- what comes in ---------------------------------------------------------------

  function who(seat) {
    const v = S.view;
    if (!v || !v.players[seat]) return `Seat ${seat}`;
    return seat === v.seat ? "You" : v.players[seat].position;
  }

  function addLog(text, kind = "") {
    log.append(h("li", { class: kind }, text));
    while (log.children.length > LOG_LIMIT) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  function takeEvent(e) {
    S.eventSeen = true;
    const v = S.view;
    const mine = v && e.seat === v.seat;
    addLog(e.text, mine ? "mine" : "");
    const verb = e.action.split(" ")[0];
    let note = "";
    if (verb === "draw") note = e.action.startsWith("draw stock") ? "drew from the stock" : `took ${e.card ? short(e.card) : "the top discard"}`;
    else if (verb === "meld") note = "melded";
    else if (verb === "layoff") note = `laid off ${short(e.card || e.action.split(" ")[1])}`;
    else if (verb === "discard") note = `discarded ${short(e.card)}`;
    S.notes[e.seat] = { text: note, took: verb === "draw" && !e.action.startsWith("draw stock") ? e.card : null, stamp: Date.now() };
    if (verb === "discard") S.flash = { kind: "discard" };
    else if (verb === "meld") S.flash = { kind: "meld", meld: -1 };
    else if (verb === "layoff") S.flash = { kind: "meld", meld: Number(e.action.split(" ").at(-1)) };
    else if (verb === "draw" && !e.action.startsWith("draw stock")) S.flash = { kind: "took" };
    else S.flash = { kind: "stock" };
    if (mine && verb !== "draw") S.selected.clear();
  }

  function handKeys(cards) {
    const seen = {};
    return cards.map((code) => {
      seen[code] = (seen[code] || 0) + 1;
      return { code, key: `${code}#${seen[code] - 1}` };
    });
  }

  function takeView(view, version) {
    if (version < S.version) return;
    const old = S.view;
    // A redeal keeps the deal's number: it is the one new version that no event announced.
    const redealt = S.redealing && old && version > S.version && !S.eventSeen && view.phase !== "over";
    S.eventSeen = false;
    if (redealt) {
      S.redealing = false;
      S.loggedDeal = null;
      addLog("That deal was thrown away; here is a new one.", "result");
    }
    S.version = version;
    S.view = view;
    if (!S.topics && view.practice) S.topics = new Topics(tableId);
    const keys = handKeys(view.hand).map((c) => c.key);
    const sameDeal = old && old.deal === view.deal && !redealt;
    if (sameDeal) {
      const before = new Set(handKeys(old.hand).map((c) => c.key));
      const added = keys.filter((k) => !before.has(k));
      if (added.length) S.fresh = new Set(added);
      else if (view.hand.length < old.hand.length) S.fresh = new Set();
    } else {
      S.fresh = new Set();
    }
    for (const key of [...S.selected]) if (!keys.includes(key)) S.selected.delete(key);
    if (!sameDeal) {
      if (old) {
        S.notes = {};
        S.selected.clear();
        S.flash = null;
      }
      if (S.loggedDeal !== view.deal) {
        S.loggedDeal = view.deal;
        addLog(`Deal ${view.deal + 1}: ${who(view.dealer) === "You" ? "you deal" : `${who(view.dealer)} deals`}.`, "deal");
      }
    }
    if (view.phase === "over" && (!old || old.phase !== "over" || old.deal !== view.deal)) {
      const text = resultText(view);
      if (old) addLog(text, "result");
    }
    if (S.hint && version > S.hint.version) S.hint = null;
    if (document.activeElement !== pace) {
      pace.value = String(view.pace_ms);
      paceOut.textContent = `${view.pace_ms} ms`;
    }
    render();
  }

  // ----- texts ------------------------------------------------------------------------

  function resultText(v) {
    const r = v.deal_result;
    if (!r) return "The deal is over.";
    const scored = r.points.map((p, seat) => (p ? `${who(seat)} ${p}` : null)).filter(Boolean);
    const scoring = scored.length ? ` Points: ${scored.join(", ")}.` : " Nobody scores.";
    if (r.result === "blocked") {
      const lead = "The deal is blocked: the stock has run out for good.";
      return lead + (r.winner !== null && r.winner !== undefined ? ` ${who(r.winner)} held the cheapest hand.` : "") + scoring;
    }
    const name = who(r.winner);
    if (r.result === "rummy") {
      const bonus = v.rules.rummy_bonus === "double" ? " — points double!" : v.rules.rummy_bonus === "plus10" ? " — 10 points more!" : "!";
      return `${name} went rummy, the whole hand down in one turn${bonus}` + scoring;
    }
    return `${name} went out.` + scoring;
  }

  function gameOverText(v) {
    if (v.winner === null || v.winner === undefined) return "The game is over, and it is a tie.";
    const total = v.scores[v.winner];
    const name = who(v.winner);
    const verb = name === "You" ? "win" : "wins";
    return v.lower_wins
      ? `The game is over: ${name} ${verb} with the lowest total, ${total}.`
      : `The game is over: ${name} ${verb} with ${total} points.`;
  }

  function statusText(v) {
    if (v.game_over) return gameOverText(v) + " Start a new game from the lobby.";
    if (v.phase === "over") return resultText(v) + " Deal the next deal when you are ready (N).";
    if (v.turn !== v.seat) return `${who(v.turn)} is thinking…`;
    if (v.phase === "draw") {
      const top = v.discard.at(-1);
      const stock = v.legal.includes("draw stock");
      const pile = v.legal.some((a) => a.startsWith("draw discard"));
      if (stock && pile) return `Your turn: draw from the stock or take the ${short(top)}.`;
      if (stock) return v.stock > 0 ? "Your turn: draw from the stock." : "Your turn: the stock is empty; drawing from it makes a new one from the discard pile.";
      if (pile) return `Your turn: the stock is empty, so take the ${short(top)}.`;
      return "Your turn.";
    }
    let text = "Select cards to meld, lay off, or discard one to end your turn.";
    if (v.taken && v.hand.length > 1 && v.legal.every((a) => a !== `discard ${v.taken}`)) text += ` The ${short(v.taken)} you just took may not go straight back.`;
    return text;
  }

  // ----- rendering ------------------------------------------------------------------

  function seatBox(seat, box) {
    const v = S.view;
    const p = v.players[seat];
    const mine = seat === v.seat;
    const turn = v.turn === seat && v.phase !== "over";
    box.className = `seat${mine ? " me" : ""}${turn ? " turn" : ""}`;
    box.dataset.seat = String(seat);
    box.dataset.position = p.position;
    const note = S.notes[seat];
    const cards = v.hand_sizes[seat];
    const label = mine ? `You${p.name && p.name !== "You" ? ` (${p.name})` : ""}` : p.position;
    const kind = p.kind === "bot" ? `Computer · ${p.level}` : p.name;
    fill(box,
      h("div", { class: "seat-head" },
        h("strong", { class: "seat-name" }, label),
        v.dealer === seat ? h("span", { class: "dealer", testid: "dealer-mark", title: "Dealer", "aria-label": "dealer" }, "D") : null,
        turn ? h("span", { class: "turn-dot" }, mine ? "your turn" : "to play") : null),
      h("div", { class: "seat-sub" }, mine ? null : h("span", {}, kind), h("span", { class: "count", testid: "card-count" }, plural(cards, "card"))),
      mine
        ? handValue
        : v.deal_result
          ? h("div", { class: "revealed" }, v.deal_result.hands[seat].length ? cardRow(v.deal_result.hands[seat]) : null, ` ${v.deal_result.values[seat]} pts`)
          : h("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: Math.min(cards, 12) }, () => cardBack({ small: true }))),
      !mine && v.known[seat] && v.known[seat].length
        ? h("div", { class: "known" }, h("span", {}, "Known: "), cardRow(v.known[seat]))
        : null,
      note && !mine
        ? h("div", { class: `note${Date.now() - note.stamp < 1500 ? " flash" : ""}` }, note.took ? ["took ", cardFace(note.took, { small: true })] : note.text)
        : null);
    return box;
  }

  function renderSeats() {
    const v = S.view;
    const n = v.players.length;
    const boxes = [];
    for (let step = 1; step < n; step++) {
      const seat = (v.seat + step) % n;
      boxes.push(seatBox(seat, h("div", { testid: "seat" })));
    }
    fill(opponents, boxes);
    opponents.dataset.count = String(n - 1);
    seatBox(v.seat, mySeat);
  }

  function renderPiles() {
    const v = S.view;
    const myDraw = v.turn === v.seat && v.phase === "draw";
    const canStock = myDraw && v.legal.includes("draw stock");
    const canPile = myDraw && v.legal.some((a) => a.startsWith("draw discard"));
    stockBtn.classList.toggle("live", canStock);
    stockBtn.classList.toggle("flash", !!S.flash && S.flash.kind === "stock");
    stockBtn.setAttribute("aria-label", `Stock, ${plural(v.stock, "card")}${canStock ? ": draw from it (S)" : ""}`);
    fill(stockBtn, v.stock ? cardBack() : h("span", { class: "card empty" }), h("span", { class: "pile-label" }, "Stock ", h("b", { testid: "stock-count" }, String(v.stock))));
    const top = v.discard.at(-1);
    discardBtn.classList.toggle("live", canPile);
    discardBtn.classList.toggle("flash", !!S.flash && (S.flash.kind === "discard" || S.flash.kind === "took"));
    discardBtn.setAttribute("aria-label", top ? `Discard pile, ${cardName(top)} on top${canPile ? ": take it (T)" : ""}` : "Discard pile, empty");
    fill(discardBtn, top ? cardFace(top) : h("span", { class: "card empty" }), h("span", { class: "pile-label" }, "Discard ", h("b", {}, String(v.discard.length))));
    pileToggle.textContent = S.pileOpen ? "Hide the pile" : `See the pile (${v.discard.length})`;
    pileToggle.setAttribute("aria-expanded", String(S.pileOpen));
    pilePanel.hidden = !S.pileOpen;
    if (S.pileOpen) {
      const deep = new Set(v.legal.filter((a) => a.startsWith("draw discard")).map((a) => Number(a.split(" ")[2] || 1)));
      const n = v.discard.length;
      fill(pilePanel,
        h("p", { class: "help" }, n ? "The whole pile, bottom card first; the last card is on top." : "The discard pile is empty."),
        h("div", { class: "card-row" }, v.discard.map((code, i) => {
          const depth = n - i;
          if (deep.has(depth) && depth > 1)
            return cardFace(code, { tag: "button", small: true, attrs: { type: "button", class: "takeable", title: `Take the ${short(code)} and every card above it`, onclick: () => drawDiscard(depth) } });
          return cardFace(code, { small: true });
        })));
    }
  }

  // Parts are rebuilt only when what they show has changed, so a card under the pointer
  // is not swapped for a copy while a computer plays.
  const shown = {};
  function changed(part, ...inputs) {
    const key = JSON.stringify(inputs);
    if (shown[part] === key) return false;
    shown[part] = key;
    return true;
  }

  function renderMelds() {
    const v = S.view;
    if (!changed("melds", v.melds, S.flash, v.players)) return;
    if (!v.melds.length) {
      fill(melds, h("p", { class: "help empty-melds" }, "The table is empty. The first set or run laid down will show here."));
      return;
    }
    const last = v.melds.length - 1;
    fill(melds, v.melds.map((m, i) => {
      const owner = v.players[m.owner] ? v.players[m.owner].position : "";
      const flash = S.flash && S.flash.kind === "meld" && (S.flash.meld === i || (S.flash.meld === -1 && i === last));
      return h("button", {
        type: "button",
        class: `meld${flash ? " flash" : ""}`,
        testid: `meld-${i}`,
        "data-meld": String(i),
        "aria-label": `Meld ${i + 1}, ${m.kind} by ${owner}: ${m.cards.map(cardName).join(", ")}. Lay the selected card off here.`,
        onclick: () => layoffOn(i),
      },
      h("span", { class: "meld-owner" }, `${owner} · ${m.kind}`),
      h("span", { class: "card-row" }, m.cards.map((code) => cardFace(code, { small: true }))));
    }));
  }

  function displayHand() {
    const v = S.view;
    const cards = handKeys(v.hand);
    const hinted = hintCards();
    return cards
      .map((c, i) => ({ ...c, i, hinted: hinted.has(c.code) }))
      .sort((a, b) => sortKey(a.code, S.sort) - sortKey(b.code, S.sort) || a.i - b.i);
  }

  function hintCards() {
    if (!S.hint || !S.hint.action) return new Set();
    const words = S.hint.action.split(" ");
    if (words[0] === "meld") return new Set(words.slice(1).map(bare));
    if (words[0] === "layoff" || words[0] === "discard") return new Set([bare(words[1])]);
    return new Set();
  }

  function renderHand() {
    const v = S.view;
    handValue.textContent = `In hand: ${v.hand_value} pts`;
    sortSuit.setAttribute("aria-pressed", String(S.sort === "suit"));
    sortRank.setAttribute("aria-pressed", String(S.sort === "rank"));
    if (!changed("hand", v.hand, [...S.selected], S.sort, [...S.fresh], S.hint && S.hint.action)) return;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const focusIndex = focused ? [...hand.children].findIndex((b) => b.dataset.key === focused) : -1;
    const cards = displayHand();
    fill(hand, cards.map((c) => {
      const picked = S.selected.has(c.key);
      const button = cardFace(c.code, {
        tag: "button",
        attrs: {
          type: "button",
          "data-testid": "hand-card",
          "data-card": c.code,
          "data-key": c.key,
          "aria-pressed": picked ? "true" : "false",
          onclick: () => toggle(c.key),
        },
      });
      if (S.fresh.has(c.key)) button.classList.add("fresh");
      if (c.hinted) button.classList.add("hinted");
      return button;
    }));
    if (!cards.length) hand.append(h("p", { class: "help" }, "No cards in hand."));
    if (focused) {
      const again = [...hand.children].find((b) => b.dataset.key === focused) || hand.children[Math.min(focusIndex, hand.children.length - 1)];
      if (again && again.focus) again.focus({ preventScroll: true });
    }
  }

  function renderButtons() {
    const v = S.view;
    const play = v.turn === v.seat && v.phase === "play";
    const n = S.selected.size;
    meldBtn.classList.toggle("primary", play && n >= 3);
    layoffBtn.classList.toggle("primary", play && n === 1 && v.melds.length > 0);
    discardAct.classList.toggle("primary", play && n === 1);
    const over = v.phase === "over";
    newDeal.disabled = over || v.game_over;
    showSummary.hidden = !(over && S.summaryClosed === v.deal);
  }

  function renderScores() {
    const v = S.view;
    const rows = v.players.map((p, seat) =>
      h("tr", { class: seat === v.seat ? "me" : "" },
        h("th", { scope: "row" }, who(seat), seat !== v.seat ? h("span", { class: "help" }, ` ${p.level || ""}`) : null),
        h("td", { "data-seat": String(seat) }, String(v.scores[seat]))));
    const goal = v.deals_limit
      ? `${v.deals_limit} deals; this is deal ${v.deal + 1}.`
      : `First to ${v.target} ends the game. Deal ${v.deal + 1}.`;
    const past = v.history.length
      ? h("details", {},
          h("summary", {}, "Deals so far"),
          h("ol", { class: "past" }, v.history.map((d) => {
            const scored = (d.points || []).map((pt, seat) => (pt ? `${who(seat)} +${pt}` : null)).filter(Boolean);
            const how = d.result === "blocked" ? "blocked" : d.result === "rummy" ? `${who(d.winner)} went rummy` : `${who(d.winner)} went out`;
            return h("li", {}, `${how}: ${scored.length ? scored.join(", ") : "no score"}`);
          })))
      : null;
    fill(scoreboard,
      h("h2", {}, "Scores"),
      h("table", {}, h("tbody", {}, rows)),
      h("p", { class: "help target", testid: "target" }, goal, v.lower_wins ? " Lowest total wins." : ""),
      past);
  }

  function renderExplain() {
    const v = S.view;
    if (!v.practice) {
      explain.hidden = true;
      return;
    }
    explain.hidden = false;
    const topics = S.topics.take(v.topics);
    const earlier = [...S.topics.shown].filter((t) => !topics.includes(t));
    if (!changed("explain", topics, earlier)) return;
    const para = (t) => h("p", { "data-topic": t }, h("strong", {}, `${TOPIC_TITLES[t] || t}. `), explainTopic(t, v.rules));
    fill(explain,
      h("h2", {}, "Learning the rules"),
      topics.length ? topics.map(para) : h("p", {}, "Each rule is explained here the first time it matters."),
      earlier.length ? h("details", { class: "earlier" }, h("summary", {}, `Explained before (${earlier.length})`), earlier.map(para)) : null);
  }

  function renderHint() {
    if (!S.hint) {
      hintBox.hidden = true;
      hintBox.textContent = "";
      return;
    }
    hintBox.hidden = false;
    // The reason already starts with the advice ("Throw the K♣: ..."); fall back to our words.
    fill(hintBox, h("strong", {}, "Hint: "), S.hint.reason || `${describe(S.hint.action, S.view)}.`);
  }

  function renderSummary() {
    const v = S.view;
    const over = v.phase === "over" && v.deal_result;
    if (!over) {
      if (summary.open) summary.close();
      return;
    }
    const r = v.deal_result;
    const rows = v.players.map((p, seat) =>
      h("tr", { class: r.winner === seat ? "winner" : "" },
        h("th", { scope: "row" }, who(seat)),
        h("td", { class: "summary-hand" }, r.hands[seat].length ? cardRow(r.hands[seat]) : h("span", { class: "help" }, "no cards")),
        h("td", {}, String(r.values[seat])),
        h("td", {}, r.points[seat] ? `+${r.points[seat]}` : "0"),
        h("td", {}, h("b", {}, String(v.scores[seat])))));
    const next = h("button", { type: "button", class: "primary", testid: "next-deal", "aria-keyshortcuts": "N", onclick: nextDeal }, "Next deal ", h("kbd", {}, "N"));
    fill(summary,
      h("h2", { id: "summary-title" }, r.result === "blocked" ? "Blocked deal" : r.result === "rummy" ? "Rummy!" : `Deal ${v.deal + 1} is over`),
      h("p", { class: "result-text" }, resultText(v)),
      h("div", { class: "table-scroll" },
        h("table", { class: "summary-table" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Cards left"), h("th", { scope: "col" }, "In hand"), h("th", { scope: "col" }, "This deal"), h("th", { scope: "col" }, "Total"))),
          h("tbody", {}, rows))),
      v.game_over ? gameOver : null,
      h("div", { class: "row" },
        v.game_over ? null : next,
        h("button", { type: "button", class: "ghost", onclick: () => { S.summaryClosed = v.deal; summary.close(); render(); } }, "Look at the table")));
    if (S.summaryClosed !== v.deal && !summary.open) {
      summary.showModal();
      const focusTarget = summary.querySelector("[data-testid=next-deal]") || summary.querySelector(".button");
      if (focusTarget) focusTarget.focus();
    }
    // One game-over notice: in the summary while it is open, else on the table.
    if (v.game_over && !summary.open) overSlot.append(gameOver);
  }

  function renderGameOver() {
    const v = S.view;
    if (!v.game_over) {
      gameOver.remove();
      return;
    }
    fill(gameOver,
      h("h3", {}, "Game over"),
      h("p", {}, gameOverText(v)),
      h("a", { class: "button primary", href: "#/", onclick: () => summary.open && summary.close() }, "New game"));
  }

  function render() {
    const v = S.view;
    if (!v) return;
    document.title = `rummykit — ${v.turn === v.seat && v.phase !== "over" ? "your turn" : "table"}`;
    root.firstChild.classList.toggle("practice", !!v.practice);
    renderSeats();
    renderPiles();
    renderMelds();
    renderHand();
    renderButtons();
    renderScores();
    renderHint();
    renderExplain();
    renderGameOver();
    const text = statusText(v);
    if (status.textContent !== text) status.textContent = text;
    renderSummary();
  }

  // ----- your intents -----------------------------------------------------------------

  function toggle(key) {
    if (S.selected.has(key)) S.selected.delete(key);
    else S.selected.add(key);
    render();
  }

  function sortBy(mode) {
    S.sort = mode;
    store.set("rummykit.sort", mode);
    render();
  }

  function selectedCodes() {
    return displayHand().filter((c) => S.selected.has(c.key)).map((c) => c.code);
  }

  function drawDiscard(depth) {
    const v = S.view;
    if (!v) return;
    act(depth > 1 ? `draw discard ${depth}` : "draw discard");
  }

  function meldSelected() {
    const v = S.view;
    if (!v) return;
    const codes = selectedCodes();
    if (!codes.length) return say("Select the cards of your meld first.");
    const wanted = codes.map(bare).sort().join(" ");
    if (codes.some((c) => parse(c).joker)) {
      const options = v.legal.filter((a) => a.startsWith("meld ") && a.split(" ").slice(1).map(bare).sort().join(" ") === wanted);
      if (options.length === 1) return act(options[0]);
      if (options.length > 1) {
        return openChoice("meld", "Which card does the joker stand for?", options.map((a, i) => ({
          id: String(i),
          label: a.split(" ").slice(1).map(short).join(" "),
          cards: a.split(" ").slice(1),
          action: a,
        })));
      }
    }
    act("meld " + codes.join(" "));
  }

  function layoffOptions(code, meld) {
    const v = S.view;
    return v.legal.filter((a) => {
      const w = a.split(" ");
      return w[0] === "layoff" && bare(w[1]) === bare(code) && (meld === undefined || Number(w[2]) === meld);
    });
  }

  function layoffChoices(options) {
    const v = S.view;
    const counts = {};
    return options.map((a) => {
      const w = a.split(" ");
      const n = Number(w[2]);
      counts[n] = (counts[n] || 0) + 1;
      const m = v.melds[n];
      const owner = m && v.players[m.owner] ? v.players[m.owner].position : "";
      return {
        id: counts[n] === 1 ? String(n) : `${n}-${counts[n]}`,
        label: `Meld ${n + 1} (${owner})${w[1].includes("=") ? `, joker as ${short(w[1].split("=")[1])}` : ""}`,
        cards: m ? m.cards : [],
        action: a,
      };
    });
  }

  function oneSelected(verb) {
    const codes = selectedCodes();
    if (codes.length !== 1) {
      say(codes.length ? `Select just one card to ${verb}.` : `Select the card to ${verb} first.`);
      return null;
    }
    return codes[0];
  }

  function layoffSelected() {
    const v = S.view;
    if (!v) return;
    const code = oneSelected("lay off");
    if (!code) return;
    const options = layoffOptions(code);
    if (options.length === 1) return act(options[0]);
    if (options.length > 1) return openChoice("layoff", `Lay off the ${short(code)} on which meld?`, layoffChoices(options));
    act(`layoff ${code} 0`);
  }

  function layoffOn(meld) {
    const v = S.view;
    if (!v) return;
    const codes = selectedCodes();
    if (codes.length !== 1) return say("Select one card of your hand, then click a meld to lay it off there.");
    const options = layoffOptions(codes[0], meld);
    if (options.length === 1) return act(options[0]);
    if (options.length > 1) return openChoice("layoff", `Where does the joker go on meld ${meld + 1}?`, layoffChoices(options));
    act(`layoff ${codes[0]} ${meld}`);
  }

  function discardSelected(useFocus) {
    const v = S.view;
    if (!v) return;
    let codes = selectedCodes();
    if (!codes.length && useFocus) {
      const el = document.activeElement;
      if (el && el.dataset && el.dataset.testid === "hand-card") codes = [el.dataset.card];
    }
    if (codes.length !== 1) return say(codes.length ? "Select just one card to discard." : "Select the card to discard first.");
    act(`discard ${codes[0]}`);
  }

  function askHint() {
    send("hint", {});
  }

  function nextDeal() {
    send("next", {});
  }

  function redeal() {
    if (!window.confirm("Throw this deal away and deal again? It will not count.")) return;
    S.redealing = true;
    send("redeal", {});
  }

  function openChoice(kind, title, items) {
    S.choice = { kind, items };
    choice.dataset.testid = `${kind}-choice`;
    fill(choice,
      h("h2", { id: "choice-title" }, title),
      h("p", { class: "help" }, "Press a number, or use the arrows and Enter. Esc cancels."),
      h("ol", { class: "choice-list" }, items.map((item, i) =>
        h("li", {}, h("button", {
          type: "button",
          testid: `${kind}-choice-${item.id}`,
          onclick: () => {
            choice.close();
            act(item.action);
          },
        }, h("kbd", {}, String(i + 1)), " ", item.label, " ", h("span", { "aria-hidden": "true" }, cardRow(item.cards)))))),
      h("form", { method: "dialog" }, h("button", { class: "ghost" }, "Cancel")));
    choice.showModal();
    const first = choice.querySelector(".choice-list button");
    if (first) first.focus();
  }

  // ----- keys ---------------------------------------------------------------------------

  function moveInHand(step) {
    const buttons = [...hand.querySelectorAll("button")];
    if (!buttons.length) return;
    const at = buttons.indexOf(document.activeElement);
    const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1) : Math.max(0, Math.min(buttons.length - 1, at + step));
    buttons[next].focus();
  }

  function onKey(event) {
    const key = event.key;
    if (choice.open) {
      const buttons = [...choice.querySelectorAll(".choice-list button")];
      if (/^[1-9]$/.test(key) && buttons[Number(key) - 1]) {
        buttons[Number(key) - 1].click();
        return true;
      }
      if (["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight"].includes(key)) {
        const at = buttons.indexOf(document.activeElement);
        const step = key === "ArrowDown" || key === "ArrowRight" ? 1 : -1;
        const next = buttons[(at + step + buttons.length) % buttons.length];
        if (next) next.focus();
        return true;
      }
      return false;
    }
    if (summary.open) {
      if (key === "n" || key === "N") {
        nextDeal();
        return true;
      }
      return false;
    }
    const active = document.activeElement;
    const inHand = active && hand.contains(active);
    switch (key) {
      case "s":
      case "S":
        act("draw stock");
        return true;
      case "t":
      case "T":
        drawDiscard(1);
        return true;
      case "m":
      case "M":
        meldSelected();
        return true;
      case "l":
      case "L":
        layoffSelected();
        return true;
      case "d":
      case "D":
        discardSelected(true);
        return true;
      case "h":
      case "H":
        askHint();
        return true;
      case "n":
      case "N":
        if (S.view && S.view.phase === "over") {
          nextDeal();
          return true;
        }
        return false;
      case "ArrowLeft":
      case "ArrowRight":
        if (inHand || !active || active === document.body || active === root) {
          moveInHand(key === "ArrowRight" ? 1 : -1);
          return true;
        }
        return false;
      default:
        return false;
    }
  }
  setPageKeys(onKey);

  // ----- go -------------------------------------------------------------------------

  const timer = setInterval(() => {
    // let "took 7♥" notes stop flashing without waiting for the next message
    if (S.view && Object.values(S.notes).some((n) => Date.now() - n.stamp < 3200)) renderSeats();
  }, 1500);

  getTable(tableId, token)
    .then((found) => {
      if (found.version > conn.version) conn.version = found.version;
      takeView(found.view, found.version);
      conn.start();
    })
    .catch((problem) => {
      if (problem.status === 404) noSeat();
      else {
        say(`The table could not be loaded (${problem.message}); retrying.`);
        conn.start();
      }
    });

  return () => {
    clearInterval(timer);
    conn.stop();
    if (choice.open) choice.close();
    if (summary.open) summary.close();
    setConn("", "");
  };
}
