// The hand area's words in English (see ../../i18n.js): sorting and moving the cards of your
// hand, and the table's movement and sound settings.
export default {
  "hand.sort": "Sort",
  "hand.sort_group": "Sort your hand",
  "hand.sort_suit": "By suit",
  "hand.sort_rank": "By rank",
  "hand.move_help": "Drag a card, or press Shift+← or Shift+→ on it, to move it in your hand.",
  "hand.key_move": "Move the card you are on within your hand",
  "hand.moved": "{card}: place {place} of {count}.",
  "hand.motion": "Moving cards",
  "hand.motion_reduced": "Your system asks for reduced motion: cards do not move.",
  "hand.sound": "Sound on your turn and at the end of a deal",
};
