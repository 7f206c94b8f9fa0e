// "Play now" (the lobby's quick pairing): press a pool's button and wait to be seated with
// other players, by rating when signed in (ranked), with other guests otherwise. The pools,
// their tables and how many wait come from the server (GET /api/pools); the wait, the range
// of ratings accepted and the seat come over /ws/pairing (docs/PROTOCOL.md §2c).
import { onAccount, openAccount, signedIn, whenKnown } from "./account.js";
import { getPools } from "./api.js";
import { t } from "./i18n.js";
import { partyRefusalText } from "./party/model.js";
import { enterTable } from "./party/seat.js";
import { presetName } from "./rule_words.js";
import { h, fill, store } from "./util.js";

/** The words of one pool's table: "2 players · Classic · 30 seconds a turn". */
export const poolText = (pool) =>
  t("pairing.pool_line", {
    players: t("pairing.players", { count: pool.seats }),
    preset: presetName(pool.preset),
    timer: t("pairing.turn", { count: pool.turn_timer }),
  });

/** What a `seeking` frame says: the wait, who else waits, and the range accepted now. */
export function seekingText(seeking) {
  const lines = [t("pairing.waited", { count: seeking.waited_s })];
  lines.push(t("pairing.queue", { count: seeking.waiting }));
  if (seeking.ranked) {
    lines.push(seeking.low === null || seeking.high === null
      ? t("pairing.range_any")
      : t("pairing.range", { low: seeking.low, high: seeking.high }));
  }
  return lines.join(" ");
}

/** The panel: its node, and `stop` (the lobby is left: stop waiting, let go of the account). */
export function playNowPanel() {
  const intro = h("p", { testid: "play-now-intro" });
  const signIn = h("button", { type: "button", class: "link-like", testid: "play-now-sign-in", onclick: () => openAccount() }, t("account.sign_in"));
  const name = h("input", {
    id: "play-now-name", testid: "play-now-name", type: "text", maxlength: "24",
    autocomplete: "nickname", value: store.get("rummykit.name", "") || "",
  });
  const nameRow = h("div", { class: "field" }, h("label", { for: "play-now-name" }, t("lobby.your_name")), name);
  const buttons = h("div", { class: "row play-now-pools" }, h("p", { class: "help" }, t("common.loading")));
  const status = h("p", { class: "play-now-status", testid: "play-now-status", role: "status", "aria-live": "polite" });
  const error = h("p", { class: "error", testid: "play-now-error", role: "alert" });
  const cancel = h("button", { type: "button", class: "ghost", testid: "play-now-cancel", hidden: true }, t("pairing.cancel"));
  let socket = null;
  let seated = false;

  function showWho() {
    const me = signedIn();
    intro.textContent = me ? t("pairing.text_ranked", { name: me.name }) : t("pairing.text_guest");
    signIn.hidden = !!me;
    nameRow.hidden = !!me;
  }

  function stopWaiting() {
    if (socket) {
      const closing = socket;
      socket = null;
      closing.onclose = null;
      closing.close();
    }
    cancel.hidden = true;
    for (const button of buttons.querySelectorAll("button")) button.setAttribute("aria-pressed", "false");
  }

  function sit(paired) {
    seated = true;
    stopWaiting();
    status.textContent = t("pairing.found");
    enterTable(paired);
  }

  function seek(pool, button) {
    error.textContent = "";
    const me = signedIn();
    const who = name.value.trim();
    if (!me && who) store.set("rummykit.name", who);
    stopWaiting();
    button.setAttribute("aria-pressed", "true");
    cancel.hidden = false;
    status.textContent = t("pairing.connecting");
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const opened = new WebSocket(`${scheme}//${location.host}/ws/pairing`);
    socket = opened;
    opened.onopen = () => {
      opened.send(JSON.stringify({ t: "hello", v: 0, d: {} }));
      opened.send(JSON.stringify({ t: "seek", v: 0, d: { pool: pool.name, ...(!me && who ? { name: who } : {}) } }));
    };
    opened.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.t === "seeking") status.textContent = seekingText(message.d);
      else if (message.t === "paired") sit(message.d);
      else if (message.t === "refused") {
        stopWaiting();
        status.textContent = "";
        error.textContent = partyRefusalText(message.d);
      }
    };
    opened.onclose = () => {
      if (socket !== opened || seated) return;
      stopWaiting();
      status.textContent = "";
      error.textContent = t("pairing.lost");
    };
  }

  cancel.addEventListener("click", () => {
    stopWaiting();
    status.textContent = t("pairing.cancelled");
  });

  getPools()
    .then((found) => {
      fill(buttons, found.pools.map((view) => {
        const button = h("button", {
          type: "button", class: "play-now-pool", testid: "play-now", "data-pool": view.pool.name, "aria-pressed": "false",
        },
        h("strong", {}, poolText(view.pool)),
        h("span", { class: "help", testid: "play-now-waiting" }, t("pairing.waiting_now", { count: view.ranked + view.friendly })));
        button.addEventListener("click", () => seek(view.pool, button));
        return button;
      }));
    })
    .catch(() => {
      fill(buttons, h("p", { class: "help" }, t("pairing.unavailable")));
    });

  const node = h("section", { class: "panel play-now", testid: "play-now-panel", "aria-labelledby": "play-now-heading" },
    h("h2", { id: "play-now-heading" }, t("pairing.heading")),
    intro,
    h("p", { class: "help" }, signIn),
    nameRow,
    buttons,
    status,
    h("div", { class: "row" }, cancel),
    error);
  const stopAccount = onAccount(showWho);
  showWho();
  whenKnown().then(showWho);
  return {
    node,
    stop() {
      stopWaiting();
      stopAccount();
    },
  };
}
