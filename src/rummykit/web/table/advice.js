// What the table teaches: the hint you asked for (the server's advice, in its words), and
// on a practice table each rule explained the first time it matters.
import { TOPIC_TITLES, explainTopic } from "../practice.js";
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
  fill(box, h("strong", {}, "Hint: "), state.hint.reason);
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
  const earlier = [...state.topics.shown].filter((t) => !topics.includes(t));
  if (!changed(state, "explain", topics, earlier)) return;
  const para = (t) => h("p", { "data-topic": t }, h("strong", {}, `${TOPIC_TITLES[t] || t}. `), explainTopic(t, view.rules));
  fill(box,
    h("h2", {}, "Learning the rules"),
    topics.length ? topics.map(para) : h("p", {}, "Each rule is explained here the first time it matters."),
    earlier.length ? h("details", { class: "earlier" }, h("summary", {}, `Explained before (${earlier.length})`), earlier.map(para)) : null);
}
