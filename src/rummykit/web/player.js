// A player's page (#/player/NAME): per pool the rating, its history as a chart and the
// figures; then the recent ranked games, each opening its replay and saying how much it
// counted when less than a full game (what counts, as the server's thresholds say it). An
// unknown name says so. Every player's page says whether they are online (a program connected,
// a person with a page of the site open). While a program is, whoever is signed in may
// challenge it to a game; a person is challenged through the inbox.
import { askToSignIn, onAccount, signedIn, whenKnown } from "./account.js";
import { challengeBot, getPlayer, getPlayerPuzzles, getThresholds } from "./api.js";
import { lang, listOf, t } from "./i18n.js";
import { botBadge } from "./account_badge.js";
import { rankedTimer } from "./account_model.js";
import { boardHref, onlineMark, playerHref, ratingCell } from "./leaderboard.js";
import { onInbox, sendToInbox } from "./inbox.js";
import { partyRefusalText, problemText } from "./party/model.js";
import { enterParty, keepPartySeat } from "./party/seat.js";
import { DEFAULT_PRESET, PRESET_NAMES, RANKED_DEFAULT_TIMER, TURN_TIMERS } from "./protocol.js";
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

// ----- a challenge to a program online ---------------------------------------------------------

/**
 * The challenge form's first choices for a program that takes `limits` (the page's `accepts`,
 * or null): its first preset, a turn timer it takes, ranked unless it takes friendly games
 * only. A preselection only: the program decides, and says why when it declines.
 */
function preselected(limits) {
  const presets = ((limits && limits.presets) || []).filter((preset) => PRESET_NAMES.includes(preset));
  const timers = ((limits && limits.turn_timers) || []).filter((seconds) => TURN_TIMERS.includes(seconds));
  return {
    preset: presets[0] ?? DEFAULT_PRESET,
    presets,
    timer: timers.length ? rankedTimer(null, timers) : RANKED_DEFAULT_TIMER,
    ranked: !limits || limits.ranked || !limits.friendly,
  };
}

/** The form that challenges the program `name` (taking `limits`): house rules, turn timer,
 * ranked (which needs a timer), the people's pool; it waits for the program's answer, then
 * opens the party as the lobby's "Play with friends" does, or says why the program declined.
 * `isGone` says whether the page was left meanwhile. */
function challengeForm(name, limits, isGone) {
  const chosen = preselected(limits);
  const preset = h("select", { id: "challenge-preset", testid: "challenge-preset" },
    PRESET_NAMES.map((each) => h("option", { value: each }, presetName(each))));
  preset.value = chosen.preset;
  const timer = h("select", { id: "challenge-timer", testid: "challenge-timer" },
    h("option", { value: "" }, t("common.no_time_limit")),
    TURN_TIMERS.map((seconds) => h("option", { value: String(seconds) }, t("common.seconds", { count: seconds }))));
  timer.value = String(chosen.timer);
  const ranked = h("input", { id: "challenge-ranked", testid: "challenge-ranked", type: "checkbox", checked: chosen.ranked, "aria-describedby": "challenge-ranked-help" });
  const people = h("input", { id: "challenge-people-pool", testid: "challenge-people-pool", type: "checkbox", "aria-describedby": "challenge-people-pool-help" });
  const status = h("p", { class: "help", testid: "challenge-status", "aria-live": "polite" });
  const error = h("p", { class: "error", testid: "challenge-error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary", testid: "challenge-button" }, t("party.challenge_button", { name }));

  /** The timer the form sends: seconds, or null. */
  const chosenTimer = () => (timer.value ? Number(timer.value) : null);

  // ranked needs a timer, as in the lobby's "Play with friends": "no time limit" is no choice then
  function showRanked() {
    timer.options[0].disabled = ranked.checked;
    if (ranked.checked && chosenTimer() === null) timer.value = String(rankedTimer(null, TURN_TIMERS));
    people.disabled = !ranked.checked; // only a ranked game is rated at all
  }
  ranked.addEventListener("change", showRanked);
  showRanked();

  async function send(event) {
    event.preventDefault();
    error.textContent = "";
    status.textContent = t("party.bot_waiting", { name });
    button.disabled = true;
    try {
      const made = await challengeBot({
        bot: name,
        preset: preset.value,
        turn_timer: chosenTimer(),
        ranked: ranked.checked,
        program_pool: !people.checked,
      });
      // the party is made and the program joining it: its seat is kept even if the page was left
      if (isGone()) keepPartySeat(made);
      else enterParty(made);
    } catch (problem) {
      status.textContent = "";
      error.textContent = problemText(problem);
    } finally {
      button.disabled = false;
    }
  }

  return h("form", { class: "challenge-form", testid: "challenge-form", onsubmit: send },
    chosen.presets.length
      ? h("p", { class: "help", testid: "challenge-plays" }, t("party.challenge_plays", { name, presets: listOf(chosen.presets.map(presetName)) }))
      : null,
    h("div", { class: "field" }, h("label", { for: "challenge-preset" }, t("party.challenge_preset")), preset),
    h("div", { class: "field" }, h("label", { for: "challenge-timer" }, t("party.turn_time")), timer),
    h("div", { class: "field check" }, ranked, h("label", { for: "challenge-ranked" }, t("account.ranked")),
      h("p", { class: "help", id: "challenge-ranked-help" }, t("party.challenge_ranked_help"))),
    h("div", { class: "field check" }, people, h("label", { for: "challenge-people-pool" }, t("party.challenge_people_pool")),
      h("p", { class: "help", id: "challenge-people-pool-help" }, t("party.challenge_people_pool_help"))),
    h("div", { class: "row" }, button),
    status,
    error);
}

/** The challenge section of an online program's page: the form for whoever is signed in
 * (but the program's own account), the way to sign in for whoever is not. Drawn again on
 * each sign-in and sign-out; `stop` lets go of those. */
function challengeSection(found, isGone) {
  const name = found.name;
  const section = h("section", { class: "challenge", testid: "challenge", "aria-labelledby": "challenge-heading" });
  function draw() {
    const me = signedIn();
    section.hidden = !!me && me.name === name;
    if (section.hidden) return;
    const signIn = () => askToSignIn(t("party.challenge_sign_in_why", { name }));
    fill(section,
      h("h2", { id: "challenge-heading" }, t("party.challenge_heading", { name })),
      me
        ? challengeForm(name, found.accepts, isGone)
        : h("p", { testid: "challenge-signed-out" }, t("party.challenge_signed_out", { name }), " ",
          h("button", { type: "button", class: "link-like", testid: "challenge-sign-in", onclick: signIn }, t("account.sign_in"))));
  }
  draw();
  const stop = onAccount(draw);
  whenKnown().then(() => !isGone() && draw());
  return { section, stop };
}

// ----- a challenge to a person ----------------------------------------------------------------

/** The form that challenges the person `name` through the inbox: house rules, turn timer,
 * ranked (which needs a timer). It waits for their answer (withdraw meanwhile); accepted, the
 * inbox opens the table; declined or unanswered, it says so. `stop` lets go of the inbox. */
function personChallengeForm(name) {
  const preset = h("select", { id: "challenge-preset", testid: "challenge-preset" },
    PRESET_NAMES.map((each) => h("option", { value: each }, presetName(each))));
  preset.value = DEFAULT_PRESET;
  const timer = h("select", { id: "challenge-timer", testid: "challenge-timer" },
    h("option", { value: "" }, t("common.no_time_limit")),
    TURN_TIMERS.map((seconds) => h("option", { value: String(seconds) }, t("common.seconds", { count: seconds }))));
  const ranked = h("input", { id: "challenge-ranked", testid: "challenge-ranked", type: "checkbox" });
  const status = h("p", { class: "help", testid: "challenge-status", "aria-live": "polite" });
  const error = h("p", { class: "error", testid: "challenge-error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary", testid: "challenge-button" }, t("party.challenge_button", { name }));
  const withdraw = h("button", { type: "button", testid: "challenge-withdraw", hidden: true }, t("challenges.withdraw"));
  const chosenTimer = () => (timer.value ? Number(timer.value) : null);
  ranked.addEventListener("change", () => {
    timer.options[0].disabled = ranked.checked; // ranked needs a timer
    if (ranked.checked && chosenTimer() === null) timer.value = String(rankedTimer(null, TURN_TIMERS));
  });
  const waitingFor = (waiting) => {
    button.disabled = waiting;
    withdraw.hidden = !waiting;
  };
  const stop = onInbox((message) => {
    if (message.t === "challenge_sent" && message.d.to.toLowerCase() === name.toLowerCase()) {
      status.textContent = t("challenges.sent", { name: message.d.to, count: message.d.expires_in_s });
      waitingFor(true);
    } else if (message.t === "challenge_gone" && message.d.reason === "withdrawn") {
      status.textContent = t("challenges.withdrawn");
      waitingFor(false);
    } else if (message.t === "refused") {
      status.textContent = "";
      error.textContent = partyRefusalText(message.d);
      waitingFor(false);
    } else if (message.t === "paired") {
      status.textContent = t("challenges.accepted");
    }
  });
  withdraw.addEventListener("click", () => sendToInbox("withdraw"));
  function send(event) {
    event.preventDefault();
    error.textContent = "";
    const terms = { player: name, preset: preset.value, turn_timer: chosenTimer(), ranked: ranked.checked };
    if (!sendToInbox("challenge", terms)) error.textContent = t("challenges.not_connected");
  }
  const form = h("form", { class: "challenge-form", testid: "challenge-form", onsubmit: send },
    h("div", { class: "field" }, h("label", { for: "challenge-preset" }, t("party.challenge_preset")), preset),
    h("div", { class: "field" }, h("label", { for: "challenge-timer" }, t("party.turn_time")), timer),
    h("div", { class: "field check" }, ranked, h("label", { for: "challenge-ranked" }, t("account.ranked"))),
    h("div", { class: "row" }, button, withdraw),
    status,
    error);
  return { form, stop };
}

/** The challenge section of a person's page: the form for whoever else is signed in, the way
 * to sign in for whoever is not. Drawn again on each sign-in and sign-out. */
function personChallengeSection(name, isGone) {
  const section = h("section", { class: "challenge", testid: "challenge", "aria-labelledby": "challenge-heading" });
  let stopForm = () => {};
  function draw() {
    stopForm();
    stopForm = () => {};
    const me = signedIn();
    section.hidden = !!me && me.name.toLowerCase() === name.toLowerCase();
    if (section.hidden) return;
    const signIn = () => askToSignIn(t("challenges.sign_in_why", { name }));
    let body;
    if (me) {
      const made = personChallengeForm(name);
      stopForm = made.stop;
      body = made.form;
    } else {
      body = h("p", { testid: "challenge-signed-out" }, t("challenges.signed_out", { name }), " ",
        h("button", { type: "button", class: "link-like", testid: "challenge-sign-in", onclick: signIn }, t("account.sign_in")));
    }
    fill(section, h("h2", { id: "challenge-heading" }, t("challenges.heading", { name })), body);
  }
  draw();
  const stopAccount = onAccount(draw);
  whenKnown().then(() => !isGone() && draw());
  return { section, stop: () => { stopAccount(); stopForm(); } };
}

export function mountPlayer(root, name) {
  document.title = t("ratings.player_title", { name });
  let gone = false;
  let observer = null;
  let stopAccount = () => {};
  fill(root, h("section", { class: "panel ratings-page" }, h("p", { class: "help" }, t("common.loading"))));

  const counting = h("p", { class: "help", testid: "player-counting" });
  // the puzzle rating comes from the puzzles' own address; a failure just leaves it out
  const puzzleLine = h("p", { testid: "player-puzzles", hidden: true });
  getPlayerPuzzles(name)
    .then((found) => {
      if (gone || !found.answered) return;
      const rating = `${found.rating}${found.provisional ? "?" : ""}`;
      puzzleLine.textContent = t("puzzles.player_line", { rating, count: found.answered });
      puzzleLine.hidden = false;
    })
    .catch(() => {});
  getThresholds()
    .then((found) => {
      if (!gone) counting.textContent = countingText(found);
    })
    .catch(() => {}); // the page's own load reports a failure

  function show(found) {
    const pools = POOLS.filter((pool) => found.pools && found.pools[pool]).map((pool) => poolSection(pool, found.pools[pool]));
    const recent = found.recent || [];
    const online = !!found.online;
    const challenge = found.bot && online
      ? challengeSection(found, () => gone)
      : found.bot ? null : personChallengeSection(found.name, () => gone);
    if (challenge) stopAccount = challenge.stop;
    fill(root, h("section", { class: "panel ratings-page player-page" },
      h("div", { class: "player-head" },
        h("h1", { testid: "player-name" }, found.name, found.bot ? botBadge() : null),
        onlineMark(online, "player-online")),
      h("p", {}, h("a", { href: boardHref(POOLS[0]) }, t("ratings.to_board"))),
      puzzleLine,
      challenge ? challenge.section : null,
      (found.arenas_won || []).length
        ? h("section", { class: "arenas-won", testid: "arenas-won" },
          h("h2", {}, t("arenas.won_heading", { count: found.arenas_won.length })),
          h("ul", {}, found.arenas_won.map((arena) =>
            h("li", {}, h("a", { href: `#/arena/${encodeURIComponent(arena.id)}` }, arena.name)))))
        : null,
      found.bot && !online ? h("p", { class: "help", testid: "player-offline-help" }, t("ratings.offline_help")) : null,
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
    stopAccount();
    if (observer) observer.disconnect();
  };
}
