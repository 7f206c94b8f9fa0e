// Past games (#/history): the finished games of the seats this browser holds (or every game,
// where the host made the history public), each with a replay, its review and its record to
// download.
import { downloadRecord, getHistory, HISTORY_TOKENS_AT_ONCE } from "./api.js";
import { t } from "./i18n.js";
import { presetName } from "./rule_words.js";
import { h, fill, number, when, store, seatKey } from "./util.js";

const SEAT_PREFIX = seatKey("");

/** The seats this browser holds, as table id → token (see lobby.js, which keeps them). */
function heldSeats() {
  const seats = new Map();
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(SEAT_PREFIX)) continue;
      const token = store.raw(key);
      if (token) seats.set(key.slice(SEAT_PREFIX.length), token);
    }
  } catch {
    /* no storage (a private window): no seats */
  }
  return seats;
}

/**
 * Ask the server about every seat held, a batch at a time; forget the seats it no longer
 * knows (their game ended long ago). The games newest first, and whether they are everyone's.
 */
async function loadHistory(seats) {
  const held = [...seats.entries()];
  const games = new Map();
  let everyone;
  let start = 0;
  do {
    const batch = held.slice(start, start + HISTORY_TOKENS_AT_ONCE);
    const found = await getHistory(batch.map(([, token]) => token));
    everyone = found.public;
    for (const game of found.games) games.set(game.id, game);
    const unknown = new Set(found.unknown);
    for (const [table, token] of batch) {
      if (!unknown.has(token)) continue;
      store.remove(seatKey(table));
      seats.delete(table);
    }
    start += HISTORY_TOKENS_AT_ONCE;
  } while (start < held.length);
  const newestFirst = [...games.values()].sort((a, b) => b.finished - a.finished);
  return { games: newestFirst, everyone };
}

/** Whether `game` passes the filters: a name among the players (any part of it, any case),
 * the house rules, and the result for the seat this browser held (won: first alone or with
 * others; lost: any other place). */
export function shown(game, { search, preset, result }) {
  const wanted = search.trim().toLowerCase();
  if (wanted && !(game.players || []).some((name) => name.toLowerCase().includes(wanted))) return false;
  if (preset && game.preset !== preset) return false;
  if (result) {
    if (game.seat === null || game.seat === undefined) return false;
    const scores = game.scores || [];
    const won = game.winner === game.seat || (game.winner !== null && game.winner !== undefined && scores[game.seat] === scores[game.winner]);
    if ((result === "won") !== won) return false;
  }
  return true;
}

export function mountHistory(root) {
  document.title = t("history.title");
  const list = h("ol", { class: "history-list", testid: "history" }, h("li", { class: "help" }, t("common.loading")));
  const about = h("p", { testid: "history-about" }, t("history.about"));
  const search = h("input", { id: "history-search", testid: "history-search", type: "search", maxlength: "40", autocomplete: "off" });
  const presetFilter = h("select", { id: "history-rules", testid: "history-rules" }, h("option", { value: "" }, t("history.all_rules")));
  const resultFilter = h("select", { id: "history-result", testid: "history-result" },
    h("option", { value: "" }, t("history.all_results")),
    h("option", { value: "won" }, t("history.result_won")),
    h("option", { value: "lost" }, t("history.result_lost")));
  const count = h("p", { class: "help", testid: "history-count", "aria-live": "polite" });
  const filters = h("form", { class: "history-filters row", role: "search", hidden: true, onsubmit: (event) => event.preventDefault() },
    h("span", { class: "field" }, h("label", { for: "history-search" }, t("history.search")), search),
    h("span", { class: "field" }, h("label", { for: "history-rules" }, t("history.rules")), presetFilter),
    h("span", { class: "field" }, h("label", { for: "history-result" }, t("history.result")), resultFilter));
  fill(root,
    h("section", { class: "panel history" },
      h("h1", {}, t("history.heading")),
      about,
      filters,
      count,
      list,
      h("p", {}, h("a", { href: "#/" }, t("history.back")))));

  const seats = heldSeats();

  function item(game) {
    const players = game.players || [];
    const scores = game.scores || [];
    const winner = game.winner !== null && game.winner !== undefined ? players[game.winner] : null;
    const problem = h("p", { class: "error", role: "alert", testid: "download-error", hidden: true });
    const played = when(game.finished || game.created);
    const download = h("button", { type: "button", class: "ghost", testid: "download", "aria-label": t("history.download_label", { when: played }) }, t("history.download"));
    download.addEventListener("click", () => {
      problem.hidden = true;
      download.disabled = true;
      downloadRecord(game.id, seats.get(game.id))
        .catch((failure) => {
          problem.textContent = t("history.download_failed", { problem: failure.message });
          problem.hidden = false;
        })
        .finally(() => {
          download.disabled = false;
        });
    });
    return h("li", { class: "history-item", testid: "history-item", "data-game": game.id },
      h("div", { class: "history-head" },
        h("strong", {}, winner ? t("history.won", { name: winner }) : t("history.no_winner")),
        " ",
        h("span", { class: "help" }, t("history.details", {
          when: played,
          preset: game.preset ? presetName(game.preset) : "",
          deals: game.deals === null || game.deals === undefined ? t("history.deals_unknown") : t("common.deals", { count: game.deals }),
        }))),
      h("ul", { class: "history-scores" }, players.map((name, i) =>
        h("li", { class: i === game.winner ? "winner" : "" }, t("history.score", { name, score: number(scores[i] ?? 0) })))),
      h("div", { class: "row" },
        h("a", { class: "button", href: `#/replay/${encodeURIComponent(game.id)}`, testid: "replay-link", "aria-label": t("history.replay_label", { when: played }) }, t("history.replay")),
        // the replay with its review: of the seat this browser held, else the first
        h("a", { class: "button", href: `#/replay/${encodeURIComponent(game.id)}?review`, testid: "review-link", "aria-label": t("history.review_label", { when: played }) }, t("history.review")),
        download),
      problem);
  }

  loadHistory(seats)
    .then(({ games, everyone }) => {
      about.textContent = t(everyone ? "history.about_everyone" : "history.about_yours");
      if (!games.length) {
        fill(list, h("li", { class: "help" }, t("history.none")));
        return;
      }
      const presets = [...new Set(games.map((game) => game.preset).filter(Boolean))].sort();
      fill(presetFilter, h("option", { value: "" }, t("history.all_rules")),
        presets.map((preset) => h("option", { value: preset }, presetName(preset))));
      filters.hidden = false;
      const items = games.map((game) => ({ game, node: item(game) }));
      const refilter = () => {
        const chosen = { search: search.value, preset: presetFilter.value, result: resultFilter.value };
        const kept = items.filter(({ game }) => shown(game, chosen));
        fill(list, kept.length ? kept.map(({ node }) => node) : h("li", { class: "help", testid: "history-none-shown" }, t("history.none_shown")));
        count.textContent = t("history.count", { count: kept.length, total: games.length });
      };
      for (const control of [search, presetFilter, resultFilter]) control.addEventListener("input", refilter);
      refilter();
    })
    .catch((problem) => fill(list, h("li", { class: "error", role: "alert" }, t("history.failed", { problem: problem.message }))));
  return () => {};
}
