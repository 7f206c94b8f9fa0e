// The seats area's words in English (see ../../i18n.js).
export default {};
