// The lobby's line for the puzzles: a link to them, and the day's puzzle's theme with "Solve".
// Small on purpose: the lobby loads it, the puzzles page (puzzles.js) only when visited.
import { getDailyPuzzle } from "./api.js";
import { t } from "./i18n.js";
import { fill, h } from "./util.js";

/** A theme's name: "Going out". */
export const themeName = (theme) => t(`puzzles.theme.${theme}`);

/** The line; the day's puzzle fills in once the server has answered (nothing if it cannot). */
export function dailyPuzzleLine() {
  const daily = h("span", { testid: "daily-puzzle" });
  getDailyPuzzle().then((puzzle) => {
    fill(daily, ` ${t("puzzles.today", { theme: themeName(puzzle.theme) })} `,
      h("a", { href: "#/puzzles/daily", testid: "daily-puzzle-solve" }, t("puzzles.solve")));
  }).catch(() => {});
  return h("p", {}, h("a", { href: "#/puzzles", testid: "puzzles-link" }, t("puzzles.link")), daily);
}
