// ESLint for the browser table (src/rummykit/web): plain ES modules run by the browser as
// they are, so the browser's globals and nothing of Node's. Also the Node unit tests of its
// pure modules (tests/web/js). `npm run lint` or `make lint`; tests/web/test_javascript.py
// runs it in `make test`.
import js from "@eslint/js";
import globals from "globals";

const rules = {
  ...js.configs.recommended.rules,
  eqeqeq: ["error", "always", { null: "ignore" }],
  "no-var": "error",
  "prefer-const": "error",
};

// ES2022 syntax at most: with no build step, what the browsers of the last few years all run.
const modules = (names) => ({ ecmaVersion: 2022, sourceType: "module", globals: names });

export default [
  // Only these are our JavaScript: never .venv's packages or anything else in the tree.
  {
    ignores: [
      "**/*",
      "!src/", "!src/rummykit/", "!src/rummykit/web/", "!src/rummykit/web/**",
      "!tests/", "!tests/web/", "!tests/web/js/", "!tests/web/js/**",
      "!eslint.config.js",
    ],
  },
  { files: ["src/rummykit/web/**/*.js"], languageOptions: modules(globals.browser), rules },
  { files: ["tests/web/js/**/*.mjs", "eslint.config.js"], languageOptions: modules(globals.node), rules },
];
