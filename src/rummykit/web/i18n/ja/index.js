// Every area of the Japanese catalogue, loaded together by ../i18n.js when the page speaks it.
import account from "./account.js";
import analysis from "./analysis.js";
import arenas from "./arenas.js";
import challenges from "./challenges.js";
import common from "./common.js";
import events from "./events.js";
import hand from "./hand.js";
import hints from "./hints.js";
import history from "./history.js";
import howto from "./howto.js";
import keys from "./keys.js";
import lessons from "./lessons.js";
import lobby from "./lobby.js";
import pairing from "./pairing.js";
import party from "./party.js";
import practice from "./practice.js";
import puzzles from "./puzzles.js";
import ratings from "./ratings.js";
import refusals from "./refusals.js";
import replay from "./replay.js";
import review from "./review.js";
import rules from "./rules.js";
import seats from "./seats.js";
import table from "./table.js";
import words from "./words.js";

export default { account, analysis, arenas, challenges, common, events, hand, hints, history, howto, keys, lessons, lobby, pairing, party, practice, puzzles, ratings, refusals, replay, review, rules, seats, table, words };
