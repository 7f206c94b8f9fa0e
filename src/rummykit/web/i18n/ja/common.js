// The common area's words in Japanese (see ../../i18n.js).
export default {
  "common.cards": { other: "{count}枚" },
  "common.language": "言語",
  "common.loading": "読み込み中…",
  "common.to_lobby": "ロビーへ",
  "common.page_failed": "このページを読み込めませんでした：{problem}",
};
