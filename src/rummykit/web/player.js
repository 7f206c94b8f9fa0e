// A player's page (#/player/NAME): per pool the rating, its history as a chart and the
// figures; then the recent ranked games, each opening its replay and saying how much it
// counted when less than a full game (what counts, as the server's thresholds say it). An
// unknown name says so.
import { getPlayer, getThresholds } from "./api.js";
import { lang, t } from "./i18n.js";
import { botBadge } from "./account_badge.js";
import { boardHref, playerHref, ratingCell } from "./leaderboard.js";
import { presetName } from "./rule_words.js";
import { ratingChart, summary } from "./ratings/chart.js";
import { POOLS, changeText, countingText, dateText, figures, placeText, poolName, shareText } from "./ratings/words.js";
import { h, fill, noticePage } from "./util.js";

/** The narrowest chart drawn (px): a phone's panel is about 340 px wide. */
const CHART_MIN_WIDTH = 260;

/** The words of `key` with each `{name}` replaced by `nodes[name]` (links inside a sentence). */
function sentence(key, nodes) {
  return t(key).split(/\{(\w+)\}/).map((part, i) => (i % 2 ? nodes[part] : part));
}

/** Names as links to their pages, listed the language's way ("A, B and C" / "A、B、C"). */
function nameLinks(names) {
  const parts = new Intl.ListFormat(lang(), { style: "long", type: "conjunction" }).formatToParts(names);
  return parts.map((part) => (part.type === "element" ? h("a", { href: playerHref(part.value) }, part.value) : part.value));
}

/** A chart of `record`'s history that redraws at the width its box gets. */
function chartBox(pool, record) {
  const points = record.history || [];
  const holder = h("div", { class: "chart-holder", testid: "rating-chart" });
  const box = h("figure", { class: "chart-box" }, holder, h("figcaption", { class: "help" }, t("ratings.chart_caption", { pool: poolName(pool) })));
  if (!points.length) return { box, draw: () => {} };
  const firstGame = Math.max(1, record.games - points.length + 1);
  const { first, last, high } = summary(points);
  const words = {
    label: t("ratings.chart_label", { pool: poolName(pool), count: points.length, first, last, high }),
    dot: (dot) => t("ratings.chart_dot", { game: dot.game, when: dateText(dot.at), rating: dot.rating }),
    tick: (value) => String(value),
  };
  let drawnWidth = 0;
  function draw() {
    const width = Math.max(CHART_MIN_WIDTH, Math.floor(holder.clientWidth));
    if (width === drawnWidth) return;
    drawnWidth = width;
    fill(holder, ratingChart(points, { width, firstGame, words }));
  }
  return { box, draw };
}

function poolSection(pool, record) {
  const chart = chartBox(pool, record);
  const section = h("section", { class: "pool-record", testid: "pool-record", "data-pool": pool },
    h("h2", {}, poolName(pool)),
    h("p", { class: "player-rating", testid: "player-rating" },
      h("span", { class: "help" }, t("ratings.rating")), " ",
      h("strong", {}, ratingCell(record.rating, record.provisional))),
    chart.box,
    h("dl", { class: "figures", testid: "figures", "aria-label": t("ratings.figures", { pool: poolName(pool) }) },
      figures(record).map(([field, label, value]) =>
        h("div", { class: "figure" }, h("dt", {}, label), h("dd", { "data-figure": field }, value)))));
  return { section, draw: chart.draw };
}

function recentGame(game) {
  const when = dateText(game.at);
  const opponents = Array.isArray(game.opponents) && game.opponents.length
    ? sentence("ratings.against", { names: nameLinks(game.opponents) })
    : null;
  const change = t("ratings.change", { before: game.rating_before, after: game.rating_after, change: changeText(game.rating_before, game.rating_after) });
  const partial = typeof game.weight === "number" && game.weight < 1;
  return h("li", { class: "recent-game", testid: "recent-game", "data-table": game.table },
    h("div", { class: "recent-head" },
      h("a", { href: `#/replay/${encodeURIComponent(game.table)}`, testid: "recent-replay", "aria-label": t("ratings.replay_label", { when }) }, when),
      h("span", { class: "help" }, ` · ${poolName(game.pool)}${game.preset ? ` · ${presetName(game.preset)}` : ""}`)),
    h("div", { class: "recent-line" },
      h("strong", { testid: "recent-place" }, placeText(game.rank, game.seats, !!game.tied)),
      opponents && h("span", { testid: "recent-opponents" }, opponents),
      h("span", { testid: "recent-change" }, change),
      partial && h("span", { class: "help", testid: "recent-weight" }, t("ratings.weight", { share: shareText(game.weight) }))));
}

export function mountPlayer(root, name) {
  document.title = t("ratings.player_title", { name });
  let gone = false;
  let observer = null;
  fill(root, h("section", { class: "panel ratings-page" }, h("p", { class: "help" }, t("common.loading"))));

  const counting = h("p", { class: "help", testid: "player-counting" });
  getThresholds()
    .then((found) => {
      if (!gone) counting.textContent = countingText(found);
    })
    .catch(() => {}); // the page's own load reports a failure

  function show(found) {
    const pools = POOLS.filter((pool) => found.pools && found.pools[pool]).map((pool) => poolSection(pool, found.pools[pool]));
    const recent = found.recent || [];
    fill(root, h("section", { class: "panel ratings-page player-page" },
      h("h1", { testid: "player-name" }, found.name, found.bot ? botBadge() : null),
      h("p", {}, h("a", { href: boardHref(POOLS[0]) }, t("ratings.to_board"))),
      pools.length ? pools.map((pool) => pool.section) : h("p", { testid: "player-unrated" }, t("ratings.unrated")),
      h("section", { class: "recent" },
        h("h2", {}, t("ratings.recent")),
        counting,
        recent.length
          ? h("ol", { class: "recent-games", testid: "recent-games" }, recent.map(recentGame))
          : h("p", { class: "help" }, t("ratings.no_recent")))));
    const drawAll = () => pools.forEach((pool) => pool.draw());
    drawAll();
    if (typeof ResizeObserver === "function") {
      observer = new ResizeObserver(drawAll);
      for (const holder of root.querySelectorAll(".chart-holder")) observer.observe(holder);
    }
  }

  getPlayer(name)
    .then((found) => {
      if (!gone) show(found);
    })
    .catch((problem) => {
      if (gone) return;
      if (problem.status === 404) {
        document.title = t("ratings.player_missing_title");
        noticePage(root, t("ratings.player_missing_title"), t("ratings.player_missing", { name }),
          h("p", {}, h("a", { href: boardHref(POOLS[0]) }, t("ratings.to_board"))));
        return;
      }
      fill(root, h("section", { class: "panel ratings-page" }, h("p", { class: "error", role: "alert" }, t("ratings.player_failed", { problem: problem.message }))));
    });
  return () => {
    gone = true;
    if (observer) observer.disconnect();
  };
}
