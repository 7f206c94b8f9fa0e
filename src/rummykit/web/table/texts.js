// The table's sentences, read off the server's view: who a seat is, how a deal ended, how
// the game ended, and what the status line asks of you, in the page's language (the words
// area of the catalogues). Actions are never worded here: the server's event frames carry
// their own text.
import { short } from "../cards.js";
import { has, listOf, t } from "../i18n.js";
import { signed } from "../util.js";

/** The catalogue's key part for a fixed English word ("computer playing" → "computer_playing"). */
const keyOf = (word) => String(word).toLowerCase().replace(/\s+/g, "_");

/** A position from the server's view ("you", "left", "across", "far_right"...) in the page's
 * language (protocol/messages.py's POSITION_WORDS, generated into i18n/en/events.js); an
 * unknown one as it came. */
export function positionName(position) {
  const key = `events.position.${position}`;
  return has(key, "en") ? t(key) : String(position);
}

/** A quick reaction's words in the page's language from its code ("good_luck"), or `text`
 * (the server's English) for a code the catalogue does not word. */
export function reactionText(code, text) {
  const key = `events.reaction.${code}`;
  return has(key, "en") ? t(key) : String(text || code);
}

/** A seat's name, told apart from another seat of the same name (two computer players
 * named "Basic") by where it sits, or by a number for a spectator, who sees no positions. */
export function nameOf(view, seat) {
  const player = view && view.players[seat];
  if (!player) return t("words.someone");
  const name = player.name || t(player.kind === "bot" ? "words.computer" : "words.player");
  const same = view.players.map((p, i) => [p, i]).filter(([p]) => (p.name || "") === (player.name || ""));
  if (same.length < 2) return name;
  if (player.position) {
    const key = `words.name_at.${player.position}`;
    if (has(key, "en")) return t(key, { name });
  }
  return t("words.name_number", { name, n: same.findIndex(([, i]) => i === seat) + 1 });
}

/** "You" for your own seat, else the seat's name (`nameOf`). */
export function who(view, seat) {
  if (!view || !view.players[seat]) return t("words.someone");
  return seat === view.seat ? t("words.you") : nameOf(view, seat);
}

/** Whether the view is a spectator's: no seat, no hand, no intents. */
export const watching = (view) => view.seat === null || view.seat === undefined;

/** Whether this seat pressed "Next deal" and its party's table waits for the others. */
export const waitingForOthers = (view) => !!view && !watching(view) && (view.next_ready || []).includes(view.seat);

/** A computer's level in the page's language ("basic" / "初級"). */
export const levelName = (level) => t(`common.level.${level}`);

/** Where a seat sits and what it is, for the small line under its name. */
export function seatLine(view, seat) {
  const player = view.players[seat];
  const where = player.position && seat !== view.seat ? positionName(player.position) : "";
  const what = player.kind === "bot" ? t("common.computer_level", { level: levelName(player.level) }) : "";
  return where && what ? t("words.seat_line", { position: where, what }) : where || what;
}

/** A seat's marks: a person away, a computer playing their turns, a person who left. The
 * marks are fixed English keys ("left", "disconnected", "computer playing", also used as
 * style names); `seatMarkText` words one in the page's language. */
export function seatMarks(player) {
  if (player.kind !== "human") return [];
  if (player.left) return ["left"];
  const marks = [];
  if (!player.connected) marks.push("disconnected");
  if (player.stand_in) marks.push("computer playing");
  return marks;
}

/** A mark of `seatMarks` in the page's language. */
export const seatMarkText = (mark) => t(`words.mark.${keyOf(mark)}`);

const both = (first, second) => (second ? t("words.sentences", { first, second }) : first);

/** How the deal ended, and who scored what. */
export function resultText(view) {
  const r = view.deal_result;
  if (!r) return t("words.deal_over");
  const scored = r.points.map((p, seat) => (p ? t("words.scored", { name: who(view, seat), points: p }) : null)).filter(Boolean);
  const scoring = scored.length ? t("words.points", { list: listOf(scored) }) : t("words.nobody_scores");
  if (r.result === "blocked") {
    const cheapest = r.winner !== null && r.winner !== undefined ? t("words.cheapest", { name: who(view, r.winner) }) : "";
    return both(both(t("words.blocked"), cheapest), scoring);
  }
  const name = who(view, r.winner);
  if (r.result === "knock") return both(t("words.knock_won", { name }), scoring);
  if (r.result === "undercut") return both(t("words.undercut", { name, knocker: who(view, r.knocker) }), scoring);
  if (r.result === "rummy") {
    const bonus = view.rules.rummy_bonus;
    const key = bonus === "double" ? "words.rummy_double" : bonus === "plus10" ? "words.rummy_plus10" : "words.rummy";
    return both(t(key, { name }), scoring);
  }
  return both(t("words.went_out", { name }), scoring);
}

/** Who won the game, with what total. */
export function gameOverText(view) {
  if (view.winner === null || view.winner === undefined) return t("words.game_tie");
  const total = view.scores[view.winner];
  if (view.winner === view.seat) return t(view.lower_wins ? "words.you_win_lowest" : "words.you_win", { total });
  return t(view.lower_wins ? "words.wins_lowest" : "words.wins", { name: who(view, view.winner), total });
}

/** One line on a past deal in the scoreboard: "Left went out: Left +12". */
export function pastDealText(view, deal) {
  const scored = (deal.points || []).map((pt, seat) => (pt ? t("words.past_scored", { name: who(view, seat), points: signed(pt) }) : null)).filter(Boolean);
  const scores = scored.length ? listOf(scored) : t("words.no_score");
  if (deal.result === "blocked") return t("words.past_blocked", { scores });
  if (deal.result === "knock" || deal.result === "undercut") return t(`words.past_${deal.result}`, { name: who(view, deal.winner), scores });
  return t(deal.result === "rummy" ? "words.past_rummy" : "words.past_out", { name: who(view, deal.winner), scores });
}

/** The status line: whose turn it is and what you may do, from the legal actions sent. A
 * paused table (no player has it open: what a spectator sees) says only that: nobody is
 * thinking, and nothing plays until a player comes back. */
export function statusText(view) {
  return view.paused && !view.game_over ? t("words.paused") : turnText(view);
}

function turnText(view) {
  if (view.game_over) {
    if (watching(view)) return gameOverText(view);
    return both(gameOverText(view), t(view.party ? "words.play_again" : "words.new_from_lobby"));
  }
  if (view.phase === "over") {
    const next = watching(view) ? "words.next_deal_soon" : waitingForOthers(view) ? "words.next_waiting" : "words.next_deal_when_ready";
    return both(resultText(view), t(next));
  }
  if (view.turn !== view.seat) {
    const player = view.players[view.turn];
    if (player && player.kind === "human" && player.stand_in) return t("words.computer_playing_for", { name: who(view, view.turn) });
    return t("words.thinking", { name: who(view, view.turn) });
  }
  if (view.phase === "draw") {
    const top = view.discard.at(-1);
    const stock = view.legal.includes("draw stock");
    const pile = view.legal.some((a) => a.startsWith("draw discard"));
    if (stock && pile) return t("words.draw_either", { card: short(top) });
    if (stock) return t(view.stock > 0 ? "words.draw_stock" : "words.draw_empty_stock");
    if (pile) return t("words.take_pile", { card: short(top) });
    return t("words.your_turn");
  }
  const text = t("words.play");
  if (view.taken && view.hand.length > 1 && view.legal.every((a) => a !== `discard ${view.taken}`)) {
    return both(text, t("words.not_back", { card: short(view.taken) }));
  }
  return text;
}
