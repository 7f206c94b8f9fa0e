// The keys area's words in English (see ../../i18n.js): the keyboard panel (index.html).
export default {
  "keys.title": "Playing from the keyboard",
  "keys.intro": "Every action has a key. Keys are ignored while you type in a text or number box.",
  "keys.stock": "Draw the top card of the stock",
  "keys.discard_pile": "Take the top card of the discard pile",
  "keys.move": "Move along your hand",
  "keys.select": "Select or unselect the card you are on",
  "keys.meld": "Meld the selected cards",
  "keys.layoff": "Lay off the selected card; if it fits several melds, pick one with 1–9, or the arrows and Enter",
  "keys.discard": "Discard the selected card (or the card you are on, when none is selected)",
  "keys.hint": "Ask for a hint",
  "keys.next": "Deal the next deal, once a deal is over",
  "keys.help": "Open this panel",
  "keys.escape": "Close a panel or a choice",
  "keys.replay": "In a replay, ← and → step back and forward.",
};
