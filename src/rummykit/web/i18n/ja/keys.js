// The keys area's words in Japanese (see ../../i18n.js).
export default {
  "keys.title": "キーボードで遊ぶ",
  "keys.intro": "すべての操作にキーがあります。文字や数字の入力中はキーは働きません。",
  "keys.stock": "山札の一番上を引く",
  "keys.discard_pile": "捨て札の一番上を取る",
  "keys.move": "手札の中を移動",
  "keys.select": "いまのカードを選ぶ／選択を外す",
  "keys.meld": "選んだカードでメルドを出す",
  "keys.layoff": "選んだカードを付け札にする（出せるメルドが複数あるときは 1〜9、または矢印と Enter で選ぶ）",
  "keys.discard": "選んだカードを捨てる（選んでいなければ、いまのカード）",
  "keys.hint": "ヒントを見る",
  "keys.next": "ディールが終わったら次を配る",
  "keys.help": "このパネルを開く",
  "keys.escape": "パネルや選択を閉じる",
  "keys.replay": "リプレイでは ← と → で1手ずつ戻る／進む。",
};
