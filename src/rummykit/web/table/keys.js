// The table's keys (listed in index.html's help panel): a letter per intent, the arrows to
// walk the hand, and digits and arrows inside the "which one?" and deal-summary dialogs.
import { choiceButtons } from "./choice.js";

const ARROWS = ["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight"];

/** The page's key handler for keyboard.js: (event) => true when it used the key. */
export function tableKeys(table) {
  const { state, parts, intents } = table;

  function moveInHand(step) {
    const buttons = [...parts.hand.querySelectorAll("button")];
    if (!buttons.length) return;
    const at = buttons.indexOf(document.activeElement);
    const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1) : Math.max(0, Math.min(buttons.length - 1, at + step));
    buttons[next].focus();
  }

  function inChoice(key) {
    const buttons = choiceButtons(parts.choice);
    if (/^[1-9]$/.test(key) && buttons[Number(key) - 1]) {
      buttons[Number(key) - 1].click();
      return true;
    }
    if (ARROWS.includes(key)) {
      const at = buttons.indexOf(document.activeElement);
      const step = key === "ArrowDown" || key === "ArrowRight" ? 1 : -1;
      const next = buttons[(at + step + buttons.length) % buttons.length];
      if (next) next.focus();
      return true;
    }
    return false;
  }

  const letters = {
    s: intents.drawStock,
    t: () => intents.drawDiscard(1),
    m: intents.meldSelected,
    l: intents.layoffSelected,
    d: () => intents.discardSelected(true),
    k: () => intents.knockSelected(true),
    h: intents.askHint,
  };

  return (event) => {
    const key = event.key;
    if (parts.choice.open) return inChoice(key);
    if (parts.summary.open) {
      if (key !== "n" && key !== "N") return false;
      intents.nextDeal();
      return true;
    }
    const letter = key.length === 1 ? key.toLowerCase() : null;
    if (letter && letters[letter]) {
      letters[letter]();
      return true;
    }
    if (letter === "n") {
      if (!state.view || state.view.phase !== "over") return false;
      intents.nextDeal();
      return true;
    }
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const active = document.activeElement;
      const free = !active || active === document.body || active === table.root;
      if (!free && !parts.hand.contains(active)) return false;
      moveInHand(key === "ArrowRight" ? 1 : -1);
      return true;
    }
    return false;
  };
}
