// The replay viewer (#/replay/ID): every position of a finished game, one step at a time.
import { getFrames } from "./api.js";
import { cardRow } from "./cards.js";
import { setPageKeys } from "./keyboard.js";
import { h, fill, plural, store, seatKey } from "./util.js";

export function mountReplay(root, gameId) {
  document.title = "rummykit — replay";
  let frames = [];
  let players = [];
  let at = 0;
  let playing = 0;

  const text = h("p", { class: "status replay-text", testid: "replay-text", "aria-live": "polite" }, "Loading…");
  const prev = h("button", { type: "button", testid: "replay-prev", onclick: () => go(at - 1) }, "◀ Back");
  const next = h("button", { type: "button", class: "primary", testid: "replay-next", onclick: () => go(at + 1) }, "Forward ▶");
  const play = h("button", { type: "button", class: "ghost", testid: "replay-play", onclick: togglePlay }, "Play");
  const slider = h("input", { type: "range", id: "replay-slider", testid: "replay-slider", min: "0", max: "0", value: "0", "aria-label": "Position in the game" });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const where = h("span", { class: "help", testid: "replay-position" });
  const body = h("div", { class: "replay-body" });

  fill(root,
    h("section", { class: "panel replay" },
      h("h1", {}, "Replay"),
      h("div", { class: "replay-controls" }, prev, slider, next, play, where),
      text,
      body,
      h("p", {}, h("a", { href: "#/history" }, "Back to past games"))));

  function togglePlay() {
    if (playing) {
      clearInterval(playing);
      playing = 0;
      play.textContent = "Play";
      return;
    }
    play.textContent = "Pause";
    playing = setInterval(() => {
      if (at >= frames.length - 1) togglePlay();
      else go(at + 1);
    }, 900);
  }

  function go(index) {
    if (!frames.length) return;
    at = Math.max(0, Math.min(frames.length - 1, index));
    render();
  }

  function render() {
    const f = frames[at];
    slider.max = String(frames.length - 1);
    slider.value = String(at);
    prev.disabled = at === 0;
    next.disabled = at === frames.length - 1;
    where.textContent = `Step ${at + 1} of ${frames.length} · deal ${f.deal + 1}`;
    text.textContent = f.text;
    const stock = Array.isArray(f.stock) ? f.stock.length : f.stock;
    fill(body,
      h("div", { class: "replay-seats" }, players.map((name, seat) =>
        h("div", { class: `seat${f.turn === seat && f.phase !== "over" ? " turn" : ""}`, testid: "replay-hand" },
          h("div", { class: "seat-head" }, h("strong", {}, name), h("span", { class: "help" }, ` ${f.scores[seat]} pts · ${plural(f.hands[seat].length, "card")}`)),
          cardRow(f.hands[seat])))),
      h("div", { class: "replay-middle" },
        h("div", { class: "replay-pile" }, h("h2", {}, `Discard pile (${f.discard.length}) · stock ${stock}`), f.discard.length ? cardRow(f.discard) : h("p", { class: "help" }, "empty")),
        h("div", { class: "replay-melds" }, h("h2", {}, "Melds"),
          f.melds.length
            ? f.melds.map((m, i) => h("div", { class: "meld" }, h("span", { class: "meld-owner" }, `${i + 1}. ${players[m.owner] || ""}`), cardRow(m.cards)))
            : h("p", { class: "help" }, "none"))),
      h("table", { class: "replay-scores", testid: "replay-scores" },
        h("tbody", {}, players.map((name, seat) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, String(f.scores[seat])))))));
  }

  setPageKeys((event) => {
    if (event.key === "ArrowLeft") go(at - 1);
    else if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(frames.length - 1);
    else return false;
    return true;
  });

  // a seat's token of the game shows its replay (not needed where the history is public)
  getFrames(gameId, store.raw(seatKey(gameId)))
    .then((found) => {
      frames = found.frames || [];
      players = found.players || [];
      if (!frames.length) text.textContent = "This game has no steps to show.";
      else go(0);
    })
    .catch((problem) => {
      text.textContent = `This replay could not be loaded: ${problem.message}`;
    });

  return () => clearInterval(playing);
}
