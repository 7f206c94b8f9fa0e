// ESLint for the browser table (src/rummykit/web): plain ES modules run by the browser as
// they are, so the browser's globals and nothing of Node's. `npm run lint` (or `make lint`);
// tests/web/test_js_lint.py runs it in `make test`.
import js from "@eslint/js";
import globals from "globals";

export default [
  // Only the web modules and this file are ours; nothing else in the tree is JavaScript to lint.
  { ignores: ["**/*", "!src/", "!src/rummykit/", "!src/rummykit/web/", "!src/rummykit/web/**", "!eslint.config.js"] },
  {
    files: ["src/rummykit/web/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    rules: {
      ...js.configs.recommended.rules,
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
