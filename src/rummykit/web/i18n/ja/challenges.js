// The challenges area's words in Japanese (see ../../i18n.js): the inbox (inbox.js) and a
// person's page's challenge (player.js).
export default {
  "challenges.region": "あなたへの挑戦",
  "challenges.from": "{name}さんからの挑戦：",
  "challenges.turn": { other: "1手{count}秒" },
  "challenges.no_timer": "持ち時間なし",
  "challenges.ranked": "レート戦",
  "challenges.friendly": "フレンドリー戦",
  "challenges.left": { other: "（返事まであと{count}秒）" },
  "challenges.accept": "受けて対戦する",
  "challenges.decline": "断る",
  "challenges.heading": "{name}さんに挑戦する",
  "challenges.signed_out": "{name}さんに挑戦するにはサインインしてください。",
  "challenges.sign_in_why": "{name}さんに挑戦するにはサインインが必要です。挑戦はアカウントからアカウントへ送られます。",
  "challenges.sent": { other: "{name}さんに挑戦を送りました。返事まであと{count}秒です。" },
  "challenges.withdraw": "挑戦を取り下げる",
  "challenges.withdrawn": "挑戦を取り下げました。",
  "challenges.accepted": "受けてもらえました。席に着きます…",
  "challenges.not_connected": "いまは接続していません。少ししてからもう一度どうぞ。",
};
