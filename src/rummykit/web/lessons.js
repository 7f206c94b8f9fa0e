// The lesson path (#/lessons, #/lessons/ID): short lessons in the order LESSONS gives them
// (from the server, protocol.js), each with its example melds and a way into the puzzles of
// its theme. Which lessons are done is kept in this browser only.
import { cardRow } from "./cards.js";
import { t } from "./i18n.js";
import { LESSONS } from "./protocol.js";
import { fill, h, store } from "./util.js";

/** Where this browser keeps the ids of the lessons marked done. */
const DONE_KEY = "rummy.lessons.done";

const doneIds = () => new Set(store.get(DONE_KEY, []));

function markDone(id) {
  const done = doneIds();
  done.add(id);
  store.set(DONE_KEY, [...done]);
}

/** The puzzles of a lesson's theme. */
export const puzzlesHref = (lesson) => `#/puzzles?theme=${encodeURIComponent(lesson.theme)}`;

const lessonHref = (lesson) => `#/lessons/${encodeURIComponent(lesson.id)}`;

const title = (lesson) => t(`lessons.${lesson.id}.title`);

function list(root) {
  const done = doneIds();
  fill(root,
    h("article", { class: "panel lessons", testid: "lessons" },
      h("h1", {}, t("lessons.heading")),
      h("p", {}, t("lessons.intro")),
      h("ol", { class: "lesson-list" }, LESSONS.map((lesson) =>
        h("li", { testid: "lesson-item", "data-lesson": lesson.id },
          h("a", { href: lessonHref(lesson) }, title(lesson)),
          done.has(lesson.id) ? h("span", { class: "badge", testid: "lesson-done" }, ` ${t("lessons.done")}`) : null))),
      h("p", {}, h("a", { class: "button", href: "#/" }, t("common.to_lobby")))));
}

function lessonPage(root, index) {
  const lesson = LESSONS[index];
  const next = LESSONS[index + 1];
  const paragraphs = Array.from({ length: lesson.paragraphs }, (_, n) => h("p", {}, t(`lessons.${lesson.id}.p${n + 1}`)));
  const examples = lesson.examples.map((meld) =>
    h("p", { class: "howto-example", testid: "lesson-example" }, h("span", { class: "sr-only" }, t("lessons.example")), cardRow(meld, false)));
  const doneButton = h("button", { type: "button", testid: "lesson-mark-done", onclick: () => {
    markDone(lesson.id);
    doneButton.disabled = true;
    doneButton.textContent = t("lessons.done");
  } }, t("lessons.mark_done"));
  if (doneIds().has(lesson.id)) {
    doneButton.disabled = true;
    doneButton.textContent = t("lessons.done");
  }
  const onward = next
    ? h("a", { class: "button", href: lessonHref(next), testid: "lesson-next" }, t("lessons.next", { title: title(next) }))
    : h("p", { testid: "lesson-last" }, t("lessons.last"), " ", h("a", { href: "#/" }, t("lessons.practice_game")));
  fill(root,
    h("article", { class: "panel lesson", testid: "lesson", "data-lesson": lesson.id },
      h("p", { class: "help" }, t("lessons.number", { number: index + 1 })),
      h("h1", {}, title(lesson)),
      ...paragraphs,
      ...examples,
      h("p", {},
        h("a", { class: "button primary", href: puzzlesHref(lesson), testid: "lesson-practise", "data-theme": lesson.theme }, t("lessons.practise")),
        " ", doneButton),
      h("p", {}, onward),
      h("p", {}, h("a", { href: "#/lessons", testid: "lesson-all" }, t("lessons.all")))));
}

/** The lesson path's page: the list, or the lesson `id`. */
export function mountLessons(root, id) {
  document.title = t("lessons.title");
  if (!id) {
    list(root);
    return null;
  }
  const index = LESSONS.findIndex((lesson) => lesson.id === id);
  if (index < 0) {
    fill(root, h("article", { class: "panel" }, h("p", { testid: "lesson-missing" }, t("lessons.not_found")), h("a", { href: "#/lessons" }, t("lessons.all"))));
    return null;
  }
  lessonPage(root, index);
  return null;
}
