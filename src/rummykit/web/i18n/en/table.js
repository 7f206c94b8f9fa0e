// The table area's words in English (see ../../i18n.js).
export default {};
