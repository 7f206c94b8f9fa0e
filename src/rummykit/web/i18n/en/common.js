// The common area's words in English (see ../../i18n.js): the page's frame and words every
// page shares.
export default {
  "common.cards": { one: "{count} card", other: "{count} cards" },
  "common.language": "Language",
  "common.loading": "Loading…",
  "common.to_lobby": "To the lobby",
  "common.page_failed": "This page could not be loaded: {problem}",
};
