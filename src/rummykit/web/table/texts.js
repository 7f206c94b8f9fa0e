// The table's sentences, read off the server's view: who a seat is, how a deal ended, how
// the game ended, and what the status line asks of you. Actions are never worded here: the
// server's event frames carry their own text.
import { short } from "../cards.js";

/** A seat's name, told apart from another seat of the same name (two computer players
 * named "Basic") by where it sits, or by a number for a spectator, who sees no positions. */
export function nameOf(view, seat) {
  const player = view && view.players[seat];
  if (!player) return "Someone";
  const name = player.name || (player.kind === "bot" ? "Computer" : "Player");
  const same = view.players.map((p, i) => [p, i]).filter(([p]) => (p.name || "") === (player.name || ""));
  if (same.length < 2) return name;
  if (player.position) return `${name} (${player.position.toLowerCase()})`;
  return `${name} ${same.findIndex(([, i]) => i === seat) + 1}`;
}

/** "You" for your own seat, else the seat's name (`nameOf`). */
export function who(view, seat) {
  if (!view || !view.players[seat]) return "Someone";
  return seat === view.seat ? "You" : nameOf(view, seat);
}

/** Whether the view is a spectator's: no seat, no hand, no intents. */
export const watching = (view) => view.seat === null || view.seat === undefined;

/** Where a seat sits and what it is, for the small line under its name. */
export function seatLine(view, seat) {
  const player = view.players[seat];
  const parts = [];
  if (player.position && seat !== view.seat) parts.push(player.position);
  if (player.kind === "bot") parts.push(`computer · ${player.level}`);
  return parts.join(" · ");
}

/** A seat's marks: a person away, a computer playing their turns, a person who left. */
export function seatMarks(player) {
  if (player.kind !== "human") return [];
  if (player.left) return ["left"];
  const marks = [];
  if (!player.connected) marks.push("disconnected");
  if (player.stand_in) marks.push("computer playing");
  return marks;
}

/** How the deal ended, and who scored what. */
export function resultText(view) {
  const r = view.deal_result;
  if (!r) return "The deal is over.";
  const scored = r.points.map((p, seat) => (p ? `${who(view, seat)} ${p}` : null)).filter(Boolean);
  const scoring = scored.length ? ` Points: ${scored.join(", ")}.` : " Nobody scores.";
  if (r.result === "blocked") {
    const lead = "The deal is blocked: the stock has run out for good.";
    const cheapest = r.winner !== null && r.winner !== undefined ? ` ${who(view, r.winner)} held the cheapest hand.` : "";
    return lead + cheapest + scoring;
  }
  const name = who(view, r.winner);
  if (r.result === "rummy") {
    const bonus = view.rules.rummy_bonus === "double" ? " — points double!" : view.rules.rummy_bonus === "plus10" ? " — 10 points more!" : "!";
    return `${name} went rummy, the whole hand down in one turn${bonus}` + scoring;
  }
  return `${name} went out.` + scoring;
}

/** Who won the game, with what total. */
export function gameOverText(view) {
  if (view.winner === null || view.winner === undefined) return "The game is over, and it is a tie.";
  const total = view.scores[view.winner];
  const name = who(view, view.winner);
  const verb = name === "You" ? "win" : "wins";
  return view.lower_wins
    ? `The game is over: ${name} ${verb} with the lowest total, ${total}.`
    : `The game is over: ${name} ${verb} with ${total} points.`;
}

/** One line on a past deal in the scoreboard: "Left went out: Left +12". */
export function pastDealText(view, deal) {
  const scored = (deal.points || []).map((pt, seat) => (pt ? `${who(view, seat)} +${pt}` : null)).filter(Boolean);
  const how = deal.result === "blocked" ? "blocked" : deal.result === "rummy" ? `${who(view, deal.winner)} went rummy` : `${who(view, deal.winner)} went out`;
  return `${how}: ${scored.length ? scored.join(", ") : "no score"}`;
}

/** The status line: whose turn it is and what you may do, from the legal actions sent. */
export function statusText(view) {
  const text = turnText(view);
  return view.paused && !view.game_over ? `Paused: waiting for a player to come back. ${text}` : text;
}

function turnText(view) {
  if (view.game_over) {
    if (watching(view)) return gameOverText(view);
    return gameOverText(view) + (view.party ? " Play again with Rematch." : " Start a new game from the lobby.");
  }
  if (view.phase === "over") return resultText(view) + (watching(view) ? " The next deal comes soon." : " Deal the next deal when you are ready (N).");
  if (view.turn !== view.seat) {
    const player = view.players[view.turn];
    if (player && player.kind === "human" && player.stand_in) return `The computer is playing for ${who(view, view.turn)}…`;
    return `${who(view, view.turn)} is thinking…`;
  }
  if (view.phase === "draw") {
    const top = view.discard.at(-1);
    const stock = view.legal.includes("draw stock");
    const pile = view.legal.some((a) => a.startsWith("draw discard"));
    if (stock && pile) return `Your turn: draw from the stock or take the ${short(top)}.`;
    if (stock) return view.stock > 0 ? "Your turn: draw from the stock." : "Your turn: the stock is empty; drawing from it makes a new one from the discard pile.";
    if (pile) return `Your turn: the stock is empty, so take the ${short(top)}.`;
    return "Your turn.";
  }
  let text = "Select cards to meld, lay off, or discard one to end your turn.";
  if (view.taken && view.hand.length > 1 && view.legal.every((a) => a !== `discard ${view.taken}`)) text += ` The ${short(view.taken)} you just took may not go straight back.`;
  return text;
}
