// The challenges area's words in English (see ../../i18n.js): the inbox (inbox.js) and a
// person's page's challenge (player.js).
export default {
  "challenges.region": "Challenges to you",
  "challenges.from": "{name} challenges you:",
  "challenges.turn": { one: "{count} second a turn", other: "{count} seconds a turn" },
  "challenges.no_timer": "no time limit",
  "challenges.ranked": "ranked",
  "challenges.friendly": "friendly",
  "challenges.left": { one: "({count} second to answer)", other: "({count} seconds to answer)" },
  "challenges.accept": "Accept and play",
  "challenges.decline": "Decline",
  "challenges.heading": "Challenge {name}",
  "challenges.signed_out": "Sign in to challenge {name} to a game.",
  "challenges.sign_in_why": "Sign in to challenge {name}: a challenge goes from one account to another.",
  "challenges.sent": { one: "Your challenge is with {name}: they have {count} second to answer.", other: "Your challenge is with {name}: they have {count} seconds to answer." },
  "challenges.withdraw": "Withdraw the challenge",
  "challenges.withdrawn": "You withdrew your challenge.",
  "challenges.accepted": "Accepted: taking your seat…",
  "challenges.not_connected": "Not connected just now: try again in a moment.",
};
