// The leaderboard (#/leaderboard, #/leaderboard/penalty): one pool's table at a time, a switch
// between the pools, the thresholds of a place as the server says them, and "Show everyone
// rated" (every account rated in the pool, provisional ones too). A program's account online
// is marked so by its name.
import { botBadge } from "./account_badge.js";
import { getLeaderboard, getThresholds } from "./api.js";
import { t } from "./i18n.js";
import { POOLS, poolName, ratingText } from "./ratings/words.js";
import { h, fill, noticePage, number, store } from "./util.js";

const EVERYONE_KEY = "rummykit.boardEveryone";

/** The address of a pool's board: the winner pool's is the plain one. */
export const boardHref = (pool) => (pool === POOLS[0] ? "#/leaderboard" : `#/leaderboard/${pool}`);

/** A player's page address. */
export const playerHref = (name) => `#/player/${encodeURIComponent(name)}`;

/** A rating as shown, its "?" explained to a pointer and to a screen reader. */
export function ratingCell(rating, provisional) {
  if (!provisional) return String(rating);
  return h("span", { class: "provisional", title: t("ratings.provisional") },
    ratingText(rating, true), h("span", { class: "sr-only" }, ` (${t("ratings.provisional")})`));
}

/** Whether a program's account is online: a dot and the word ("online", "offline"), never the
 * dot's colour alone. The same mark on the board and on a player's page. */
export function onlineMark(online, testid) {
  return h("span", { class: `online-mark${online ? " on" : ""}`, testid, "data-online": String(online) },
    h("span", { class: `presence${online ? " on" : ""}`, "aria-hidden": "true" }),
    t(online ? "ratings.online" : "ratings.offline"));
}

export function mountLeaderboard(root, asked) {
  const pool = asked ?? POOLS[0];
  if (!POOLS.includes(pool)) {
    noticePage(root, t("ratings.board_heading"), t("ratings.no_pool", { pool: asked }),
      h("p", {}, h("a", { href: boardHref(POOLS[0]) }, t("ratings.to_board"))));
    return () => {};
  }
  document.title = t("ratings.board_title");
  let everyone = !!store.get(EVERYONE_KEY, false);
  let loads = 0;
  let gone = false;

  const rules = h("p", { class: "help", testid: "board-thresholds" }, t("ratings.thresholds_loading"));
  const toggle = h("input", { type: "checkbox", id: "board-everyone", testid: "board-everyone", checked: everyone, "aria-describedby": "board-everyone-help" });
  const body = h("div", { class: "board-body", testid: "board-body", "aria-live": "polite" }, h("p", { class: "help" }, t("common.loading")));
  fill(root,
    h("section", { class: "panel ratings-page" },
      h("h1", {}, t("ratings.board_heading")),
      h("nav", { class: "pool-switch", "aria-label": t("ratings.pools") },
        POOLS.map((each) => h("a", { class: "button ghost", href: boardHref(each), testid: `pool-${each}`, "aria-current": each === pool ? "page" : null }, poolName(each)))),
      rules,
      h("div", { class: "field check" },
        toggle,
        h("label", { for: "board-everyone" }, t("ratings.everyone")),
        h("span", { class: "help", id: "board-everyone-help" }, t("ratings.everyone_help"))),
      body));

  const thresholds = getThresholds();
  thresholds
    .then((found) => {
      if (!gone) rules.textContent = t("ratings.thresholds", words(found));
    })
    .catch(() => {}); // the board's own load reports the failure

  function words(found) {
    return { games: number(found.min_games), opponents: number(found.min_opponents), days: number(found.idle_days) };
  }

  function table(entries) {
    return h("table", { class: "leaderboard", testid: "board" },
      h("caption", {}, t(everyone ? "ratings.board_caption_everyone" : "ratings.board_caption", { pool: poolName(pool) })),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", class: "num" }, t("ratings.col_rank")),
        h("th", { scope: "col" }, t("ratings.col_player")),
        h("th", { scope: "col", class: "num" }, t("ratings.col_rating")),
        h("th", { scope: "col", class: "num" }, t("ratings.col_games")))),
      h("tbody", {}, entries.map((entry, i) =>
        h("tr", { testid: "board-row", "data-name": entry.name },
          h("td", { class: "num" }, number(i + 1)),
          h("th", { scope: "row" }, h("a", { href: playerHref(entry.name), testid: "board-player" }, entry.name), entry.bot ? botBadge() : null,
            entry.online ? onlineMark(true, "board-online") : null),
          h("td", { class: "num", testid: "board-rating" }, ratingCell(entry.rating, entry.provisional)),
          h("td", { class: "num" }, number(entry.games))))));
  }

  function load() {
    const mine = ++loads;
    Promise.all([thresholds, getLeaderboard(pool, everyone)])
      .then(([found, entries]) => {
        if (gone || mine !== loads) return;
        if (!entries.length) {
          const why = everyone ? t("ratings.nobody_rated") : t("ratings.nobody_qualifies", words(found));
          fill(body, h("p", { class: "board-empty", testid: "board-empty" }, why));
          return;
        }
        const provisional = entries.some((entry) => entry.provisional);
        fill(body, table(entries), provisional ? h("p", { class: "help" }, t("ratings.provisional_note")) : null);
      })
      .catch((problem) => {
        if (!gone && mine === loads) fill(body, h("p", { class: "error", role: "alert" }, t("ratings.board_failed", { problem: problem.message })));
      });
  }

  toggle.addEventListener("change", () => {
    everyone = toggle.checked;
    store.set(EVERYONE_KEY, everyone);
    load();
  });
  load();
  return () => {
    gone = true;
  };
}
