// What the table teaches: the hint you asked for (the server's advice, worded in the page's
// language from its kinds and params), and on a practice table each rule explained the first
// time it matters.
import { explainTopic, topicTitle } from "../practice.js";
import { has, t } from "../i18n.js";
import { h, fill } from "../util.js";
import { sentence } from "./event_words.js";
import { changed } from "./state.js";

/**
 * A hint frame's data ({action, reason, kind, params, action_kind, action_params}) as one
 * sentence in the page's language: the advice (`hints.<action_kind>`, cards as the table
 * shows them) put in the reason's {action} (`hints.<kind>`). The English templates are
 * Python's (bots/hint_words.py). The server's English reason when a kind is unknown here.
 */
export function hintText(hint) {
  const why = `hints.${hint.kind}`;
  const advice = `hints.${hint.action_kind}`;
  if (!hint.kind || !hint.action_kind || !has(why, "en") || !has(advice, "en")) return hint.reason;
  const action = sentence(advice, null, hint.action_params);
  return sentence(why, null, { ...hint.params, action });
}

export function renderHint(table) {
  const { state, parts } = table;
  const box = parts.hint;
  if (!state.hint) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  fill(box, h("strong", {}, t("words.hint")), " ", h("span", {}, hintText(state.hint)));
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
    earlier.length ? h("details", { class: "earlier" }, h("summary", {}, t("words.explained_before", { count: earlier.length })), earlier.map(para)) : null,
    h("p", { class: "help" }, h("a", { href: "#/lessons", target: "_blank", rel: "noopener", testid: "practice-lessons" }, t("lessons.link"))));
}
