// The "which one?" dialog: when the selected cards can be played several legal ways (a
// joker's meaning, a lay-off on several melds), each way is a numbered button.
import { cardRow } from "../cards.js";
import { t } from "../i18n.js";
import { h, fill } from "../util.js";

/** Fill and open `dialog` with `items` ({id, label, cards, action}); `act` plays the pick. */
export function openChoice(dialog, kind, title, items, act) {
  dialog.dataset.testid = `${kind}-choice`;
  fill(dialog,
    h("h2", { id: "choice-title" }, title),
    h("p", { class: "help" }, t("words.choice_help")),
    h("ol", { class: "choice-list" }, items.map((item, i) =>
      h("li", {}, h("button", {
        type: "button",
        testid: `${kind}-choice-${item.id}`,
        onclick: () => {
          dialog.close();
          act(item.action);
        },
      }, h("kbd", {}, String(i + 1)), " ", item.label, " ", h("span", { "aria-hidden": "true" }, cardRow(item.cards)))))),
    h("form", { method: "dialog" }, h("button", { class: "ghost" }, t("words.cancel"))));
  dialog.showModal();
  const first = dialog.querySelector(".choice-list button");
  if (first) first.focus();
}

/** The choice's buttons, in order (for the number and arrow keys). */
export function choiceButtons(dialog) {
  return [...dialog.querySelectorAll(".choice-list button")];
}
