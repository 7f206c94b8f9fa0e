// What your clicks and keys ask for: each intent becomes an action text from the server's
// own `legal` list (or a plain request: hint, next deal, redeal, pace). The server decides;
// when it refuses, its message is shown. Page-only choices (selection, sort) just re-render.
import { bare, parse, short } from "../cards.js";
import { t } from "../i18n.js";
import { openChoice } from "./choice.js";
import { hintLevel, selectedCodes, setSort } from "./state.js";
import { watching, who } from "./texts.js";

/** The intents of one table page; `table` is {state, parts, conn, render} (see table.js). */
export function createIntents(table) {
  const state = table.state;

  function say(text) {
    table.parts.message.textContent = text || "";
  }

  function send(type, data) {
    say("");
    if (!table.conn.send(type, data)) say(t("words.not_connected"));
  }

  function act(action) {
    send("act", { action });
  }

  function ask(kind, title, items) {
    openChoice(table.parts.choice, kind, title, items, act);
  }

  function drawDiscard(depth) {
    if (!state.view) return;
    act(depth > 1 ? `draw discard ${depth}` : "draw discard");
  }

  function meldSelected() {
    const view = state.view;
    if (!view) return;
    const codes = selectedCodes(state);
    if (!codes.length) return say(t("words.select_meld"));
    const wanted = codes.map(bare).sort().join(" ");
    if (codes.some((c) => parse(c).joker)) {
      // Which card the joker stands for: the server lists each reading as its own action.
      const options = view.legal.filter((a) => a.startsWith("meld ") && a.split(" ").slice(1).map(bare).sort().join(" ") === wanted);
      if (options.length === 1) return act(options[0]);
      if (options.length > 1) {
        return ask("meld", t("words.which_joker"), options.map((a, i) => ({
          id: String(i),
          label: a.split(" ").slice(1).map(short).join(" "),
          cards: a.split(" ").slice(1),
          action: a,
        })));
      }
    }
    act("meld " + codes.join(" "));
  }

  /** The legal lay-offs of `code` (on meld `meld`, or on any). */
  function layoffOptions(code, meld) {
    return state.view.legal.filter((a) => {
      const w = a.split(" ");
      return w[0] === "layoff" && bare(w[1]) === bare(code) && (meld === undefined || Number(w[2]) === meld);
    });
  }

  function layoffChoices(options) {
    const view = state.view;
    const counts = {};
    return options.map((a) => {
      const w = a.split(" ");
      const n = Number(w[2]);
      counts[n] = (counts[n] || 0) + 1;
      const m = view.melds[n];
      const owner = m ? who(view, m.owner) : "";
      return {
        id: counts[n] === 1 ? String(n) : `${n}-${counts[n]}`,
        label: w[1].includes("=")
          ? t("words.meld_choice_joker", { n: n + 1, owner, card: short(w[1].split("=")[1]) })
          : t("words.meld_choice", { n: n + 1, owner }),
        cards: m ? m.cards : [],
        action: a,
      };
    });
  }

  function oneSelected() {
    const codes = selectedCodes(state);
    if (codes.length !== 1) {
      say(t(codes.length ? "words.just_one_layoff" : "words.first_layoff"));
      return null;
    }
    return codes[0];
  }

  // With no legal lay-off, the card is still sent: the server's refusal says why it does not fit.
  function layoffSelected() {
    if (!state.view) return;
    const code = oneSelected();
    if (!code) return;
    const options = layoffOptions(code);
    if (options.length === 1) return act(options[0]);
    if (options.length > 1) return ask("layoff", t("words.which_meld", { card: short(code) }), layoffChoices(options));
    act(`layoff ${code} 0`);
  }

  function layoffOn(meld) {
    if (!state.view) return;
    const codes = selectedCodes(state);
    if (codes.length !== 1) return say(t("words.select_then_meld"));
    const options = layoffOptions(codes[0], meld);
    if (options.length === 1) return act(options[0]);
    if (options.length > 1) return ask("layoff", t("words.joker_where", { n: meld + 1 }), layoffChoices(options));
    act(`layoff ${codes[0]} ${meld}`);
  }

  /** The one card to throw: the selected one; from the keyboard, the card with the focus
   * when none is. Says what is wrong and gives null otherwise. */
  function cardToThrow(useFocus) {
    let codes = selectedCodes(state);
    if (!codes.length && useFocus) {
      const el = document.activeElement;
      if (el && el.dataset && el.dataset.testid === "hand-card") codes = [el.dataset.card];
    }
    if (codes.length !== 1) {
      say(t(codes.length ? "words.just_one_discard" : "words.first_discard"));
      return null;
    }
    return codes[0];
  }

  /** Discard the selected card; from the keyboard, the card with the focus when none is. */
  function discardSelected(useFocus) {
    if (!state.view) return;
    const code = cardToThrow(useFocus);
    if (code) act(`discard ${code}`);
  }

  /** Knock rummy: knock, throwing the selected card (the server refuses it elsewhere). */
  function knockSelected(useFocus) {
    if (!state.view) return;
    const code = cardToThrow(useFocus);
    if (code) act(`knock ${code}`);
  }

  function redeal() {
    if (!window.confirm(t("words.redeal_confirm"))) return;
    state.redealing = true;
    send("redeal", {});
  }

  /** Off to the lobby for a new game. At a party's table in play your seat stays yours, and
   * the computer plays it while you are away: say so first. */
  function newGame() {
    const view = state.view;
    const seated = !!view && !watching(view) && !view.players[view.seat].left;
    if (seated && view.party && !view.game_over && !window.confirm(t("words.new_game_confirm"))) return;
    location.hash = "#/";
  }

  function leave() {
    if (!window.confirm(t("words.leave_confirm"))) return;
    if (table.conn.send("leave", {})) table.left();
    else say(t("words.not_connected"));
  }

  return {
    say,
    leave,
    react: (reaction) => table.conn.send("react", { reaction }),
    rematch: () => send("rematch", {}),
    drawStock: () => act("draw stock"),
    drawDiscard,
    meldSelected,
    layoffSelected,
    layoffOn,
    discardSelected,
    knockSelected,
    // no hints at a party's table (the button is hidden there too): friends play on their own
    askHint: () => !(state.view && state.view.party) && send("hint", { level: hintLevel() }),
    nextDeal: () => send("next", {}),
    redeal,
    newGame,
    setPace: (ms) => table.conn.send("pace", { ms }),
    toggleCard(key) {
      if (state.selected.has(key)) state.selected.delete(key);
      else state.selected.add(key);
      table.render();
    },
    sortBy(mode) {
      setSort(state, mode);
      table.render();
    },
    togglePile() {
      state.pileOpen = !state.pileOpen;
      table.render();
    },
    showSummary() {
      state.summaryClosed = null;
      table.render();
    },
    hideSummary() {
      state.summaryClosed = state.view.deal;
      table.parts.summary.close();
      table.render();
    },
    summaryCancelled() {
      // Esc: the dialog closes itself after this event, so render once it has.
      state.summaryClosed = state.view ? state.view.deal : null;
      setTimeout(table.render);
    },
  };
}
