// The hand area's words in Japanese (see ../../i18n.js).
export default {
  "hand.sort": "並べ替え",
  "hand.sort_group": "手札を並べ替える",
  "hand.sort_suit": "スート順",
  "hand.sort_rank": "数字順",
  "hand.move_help": "カードをドラッグするか、Shift+← / Shift+→ で手札の中を動かせます。",
  "hand.key_move": "選んでいるカードを手札の中で動かす",
  "hand.moved": "{card}：{count}枚中{place}枚目",
  "hand.motion": "カードの動き",
  "hand.motion_reduced": "システムの設定で動きを減らしているため、カードは動きません。",
  "hand.sound": "自分の番とディールの終わりに音で知らせる",
};
