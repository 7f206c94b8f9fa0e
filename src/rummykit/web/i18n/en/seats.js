// The seats area's words in English (see ../../i18n.js): the number of players, changed at
// the table (table/seats.js).
export default {
  "seats.label": "Players at this table",
  "seats.option": { one: "{count} player", other: "{count} players" },
  "seats.help": "Another number of players starts a new game, with the same rules.",
  "seats.confirm": "This starts a new game with {count} players, under the same rules. The game you are playing stays unfinished. Start the new game?",
  "seats.failed": "The new table could not be made: {problem}",
};
