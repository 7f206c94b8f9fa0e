// The seats area's words in Japanese (see ../../i18n.js).
export default {};
