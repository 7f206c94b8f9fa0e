// The BOT badge: the one mark of a program's account (`program: true` on a party's member or
// a table's player), the same wherever a name shows.
import { t } from "./i18n.js";
import { h } from "./util.js";

/** Whether a member or player is a program's account (absent on older servers: a person). */
export const isProgram = (who) => !!(who && who.program);

/** The badge itself: "BOT", with the words a screen reader says and a pointer shows. */
export function botBadge() {
  const words = t("account.bot_title");
  return h("span", { class: "bot-badge", testid: "bot-badge", title: words, "aria-label": words, role: "img" }, t("account.bot"));
}

/** The badge for `who` when it is a program's account, else null (for h's children). */
export const botBadgeFor = (who) => (isProgram(who) ? botBadge() : null);

/**
 * Put the badge after the names of the table's seats whose player is a program (the seats
 * are drawn again on each view, so this runs after every draw of them).
 */
export function markProgramSeats(root, players) {
  for (const name of root.querySelectorAll("[data-seat] [data-testid=seat-name]")) {
    const seat = Number(name.closest("[data-seat]").dataset.seat);
    const next = name.nextElementSibling;
    const has = !!next && next.classList.contains("bot-badge");
    if (isProgram(players[seat]) && !has) name.after(botBadge());
    else if (!isProgram(players[seat]) && has) next.remove();
  }
}
