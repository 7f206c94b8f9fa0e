// One keydown listener for the whole app: "?" opens the help panel, the page gets the rest.
import { typing } from "./util.js";

let pageKeys = null;

/** The current page's key handler: (event) => true when it used the key. */
export function setPageKeys(handler) {
  pageKeys = handler;
}

function openHelp() {
  const help = document.getElementById("help");
  if (help && !help.open) help.showModal();
}

export function installKeyboard() {
  document.getElementById("help-button").addEventListener("click", openHelp);
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event)) return;
    const help = document.getElementById("help");
    if (help.open) return; // the panel only needs Escape, which the dialog handles itself
    if (event.key === "?") {
      event.preventDefault();
      openHelp();
      return;
    }
    if (pageKeys && pageKeys(event)) event.preventDefault();
  });
}
