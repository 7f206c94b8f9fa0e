// The practice game's short explanations, one per topic, written for the table's own rules,
// in the page's language (the practice area of the catalogues).
import { t } from "./i18n.js";
import { store } from "./util.js";

/** "once", "twice", "3 times" (a count of renewals). */
const times = (n) => (n === 2 ? t("practice.twice") : t("practice.times", { count: n }));

/** Sentences one after the other, the language's way (a space in English, none in Japanese). */
const sentences = (...parts) => parts.filter(Boolean).reduce((first, second) => t("words.sentences", { first, second }));

function aceWords(rules) {
  if (rules.aces === "low") return t("practice.meld_aces_low");
  return t(rules.aces === "around" ? "practice.meld_aces_around" : "practice.meld_aces_either");
}

const LAYOFF_LIMITS = { after_meld: "practice.layoff_after_meld", turn_after_meld: "practice.layoff_turn_after_meld" };
const RUMMY_BONUS = { double: "practice.rummy_double", plus10: "practice.rummy_plus10" };
const RENEWS = new Set(["flip", "shuffle", "shuffle_keep_top"]);

const TEXTS = {
  draw: (r) =>
    sentences(
      t("practice.draw"),
      t(r.discard_take === "any" ? "practice.draw_deep" : "practice.draw_top"),
      r.discard_take === "any" && r.deep_take_must_use !== false && t("practice.draw_deep_must"),
      r.stock_with_discard && t("practice.draw_stock_too"),
    ),
  empty_stock: (r) =>
    sentences(
      t("practice.empty_stock"),
      RENEWS.has(r.renew) && t(`practice.empty_stock_${r.renew}`),
      r.empty_stock_choice && t("practice.empty_stock_choice"),
      r.renewals !== null && r.renew !== "none" && t("practice.empty_stock_limit", { times: times(r.renewals) }),
    ),
  meld: (r) =>
    sentences(
      t("practice.meld"),
      aceWords(r),
      r.jokers > 0 && t("practice.meld_jokers"),
      r.melds_per_turn > 0 && t("practice.meld_limit", { count: r.melds_per_turn }),
    ),
  layoff: (r) => sentences(t("practice.layoff"), LAYOFF_LIMITS[r.layoff] && t(LAYOFF_LIMITS[r.layoff])),
  no_throwback: () => t("practice.no_throwback"),
  discard: (r) => sentences(t("practice.discard"), t(r.go_out === "discard" ? "practice.discard_keep_one" : "practice.discard_go_out")),
  renewed: (r) =>
    sentences(
      t(RENEWS.has(r.renew) ? `practice.renewed_${r.renew}` : "practice.renewed"),
      r.renewals !== null && t("practice.renewed_limit", { times: times(r.renewals) }),
    ),
  blocked: (r) => sentences(t("practice.blocked"), t(r.blocked === "lowest_collects" ? "practice.blocked_collects" : "practice.blocked_nobody")),
  rummy: (r) => sentences(t("practice.rummy"), t(RUMMY_BONUS[r.rummy_bonus] || "practice.rummy_same")),
  out: (r) => sentences(t("practice.out"), t(r.scoring === "penalty" ? "practice.out_penalty" : "practice.out_collect")),
};

/** A topic's title ("Drawing"), in the page's language. */
export const topicTitle = (topic) => (Object.hasOwn(TEXTS, topic) ? t(`practice.title.${topic}`) : topic);

/** A topic's explanation for the table's `rules`, in the page's language; "" for no such topic. */
export function explainTopic(topic, rules) {
  const text = TEXTS[topic];
  return text ? text(rules) : "";
}

/** Which topics to explain now: those never shown at this table (remembered per table). */
export class Topics {
  constructor(table) {
    this.key = `rummykit.topics.${table}`;
    const saved = store.get(this.key, { shown: [], last: [] });
    this.shown = new Set(saved.shown || []);
    this.last = saved.last || [];
  }

  /**
   * The topics to show for this view's list (the rules that apply now): the new ones, else
   * those last shown that still apply. A rule that no longer applies (a new deal, the meld
   * laid, the turn over) is not explained any more, after a reload either.
   */
  take(topics) {
    const now = (topics || []).filter((topic) => TEXTS[topic]);
    const fresh = now.filter((topic) => !this.shown.has(topic));
    if (fresh.length) {
      fresh.forEach((topic) => this.shown.add(topic));
      this.last = fresh;
    } else {
      this.last = this.last.filter((topic) => now.includes(topic));
    }
    store.set(this.key, { shown: [...this.shown], last: this.last });
    return this.last;
  }
}
