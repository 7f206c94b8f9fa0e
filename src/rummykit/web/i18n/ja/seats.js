// The seats area's words in Japanese (see ../../i18n.js): the number of players, changed at
// the table (table/seats.js).
export default {
  "seats.label": "このテーブルの人数",
  "seats.option": { other: "{count}人" },
  "seats.help": "人数を変えると、同じルールで新しいゲームが始まります。",
  "seats.confirm": "同じルールで{count}人の新しいゲームを始めます。今のゲームは途中のまま残ります。新しいゲームを始めますか？",
  "seats.failed": "新しいテーブルを作れませんでした: {problem}",
};
