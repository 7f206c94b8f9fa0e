// What the table teaches: the hint you asked for (the server's advice, in its words), and
// on a practice table each rule explained the first time it matters.
import { explainTopic, topicTitle } from "../practice.js";
import { t } from "../i18n.js";
import { h, fill } from "../util.js";
import { changed } from "./state.js";

export function renderHint(table) {
  const { state, parts } = table;
  const box = parts.hint;
  if (!state.hint) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  fill(box, h("strong", {}, t("words.hint")), " ", h("span", { "data-words": "advice" }, state.hint.reason));
}

export function renderExplain(table) {
  const { state, parts } = table;
  const view = state.view;
  const box = parts.explain;
  if (!view.practice) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const topics = state.topics.take(view.topics);
  const earlier = [...state.topics.shown].filter((topic) => !topics.includes(topic));
  if (!changed(state, "explain", topics, earlier)) return;
  const para = (topic) => h("p", { "data-topic": topic },
    h("strong", {}, t("words.topic_title", { title: topicTitle(topic) })), " ",
    h("span", {}, explainTopic(topic, view.rules)));
  fill(box,
    h("h2", {}, t("words.learning")),
    topics.length ? topics.map(para) : h("p", {}, t("words.explained_here")),
    earlier.length ? h("details", { class: "earlier" }, h("summary", {}, t("words.explained_before", { count: earlier.length })), earlier.map(para)) : null);
}
