// Past games (#/history): each finished game with a replay and its record to download.
import { getHistory, recordUrl } from "./api.js";
import { h, fill, when } from "./util.js";

export function mountHistory(root) {
  document.title = "rummykit — past games";
  const list = h("ol", { class: "history-list", testid: "history" }, h("li", { class: "help" }, "Loading…"));
  fill(root,
    h("section", { class: "panel history" },
      h("h1", {}, "Past games"),
      h("p", {}, "Finished games, newest first. Replay one step by step, or download its record."),
      list,
      h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));

  getHistory()
    .then(({ games }) => {
      if (!games.length) {
        fill(list, h("li", { class: "help" }, "No finished games yet."));
        return;
      }
      fill(list, games.map((game) => {
        const players = game.players || [];
        const scores = game.scores || [];
        const winner = game.winner !== null && game.winner !== undefined ? players[game.winner] : null;
        return h("li", { class: "history-item", testid: "history-item", "data-game": game.id },
          h("div", { class: "history-head" },
            h("strong", {}, winner ? `${winner} won` : "No winner"),
            h("span", { class: "help" }, ` · ${when(game.finished || game.created)} · ${game.preset || ""} · ${game.deals ?? "?"} deals`)),
          h("ul", { class: "history-scores" }, players.map((name, i) =>
            h("li", { class: i === game.winner ? "winner" : "" }, `${name}: ${scores[i] ?? 0}`))),
          h("div", { class: "row" },
            h("a", { class: "button", href: `#/replay/${encodeURIComponent(game.id)}`, testid: "replay-link" }, "Replay"),
            h("a", { class: "button ghost", href: recordUrl(game.id), download: `rummy-${game.id}.json`, testid: "download" }, "Download record")));
      }));
    })
    .catch((problem) => fill(list, h("li", { class: "error", role: "alert" }, `The list could not be loaded: ${problem.message}`)));
  return () => {};
}
