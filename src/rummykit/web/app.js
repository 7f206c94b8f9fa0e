// The page: hash routes (#/, #/table/ID, #/watch/ID, #/party/CODE, #/history, #/replay/ID,
// #/howto, #/lessons[/ID], #/puzzles, #/leaderboard[/POOL], #/player/NAME, #/arenas, #/arena/ID) and the display settings. A route may end in
// a query (#/replay/ID?review=SEAT: open the replay with that seat's review), which goes to
// the page as URLSearchParams.
import { installAccount } from "./account.js";
import { installInbox } from "./inbox.js";
import { LANGUAGES, applyStatic, lang, setLang, t } from "./i18n.js";
import { installKeyboard, setPageKeys } from "./keyboard.js";
import { h, setting } from "./util.js";

let unmount = null;
let routed = 0;

let current = null;

function route() {
  const raw = location.hash.replace(/^#/, "");
  if (raw && !raw.startsWith("/")) return; // an in-page anchor, not a page
  if (raw === current) return;
  current = raw;
  if (unmount) {
    try {
      unmount();
    } catch {
      /* a page that failed to clean up must not block the next one */
    }
  }
  unmount = null;
  setPageKeys(null);
  document.getElementById("conn").textContent = "";
  const root = document.getElementById("app");
  root.replaceChildren();
  const [path, query = ""] = (raw || "/").split("?", 2);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query);
  document.body.dataset.page = parts[0] || "lobby";
  // Each page's module is loaded when first visited, so a first load fetches only its page.
  const token = ++routed;
  const id = parts[1];
  const pages = {
    table: id && (() => import("./table.js").then((m) => () => m.mountTable(root, id))),
    watch: id && (() => import("./table.js").then((m) => () => m.mountTable(root, id, { watch: true }))),
    party: id && (() => import("./party.js").then((m) => () => m.mountParty(root, id))),
    history: () => import("./history.js").then((m) => () => m.mountHistory(root)),
    replay: id && (() => import("./replay.js").then((m) => () => m.mountReplay(root, id, params))),
    howto: () => import("./howto.js").then((m) => () => m.mountHowto(root, id)),
    lessons: () => import("./lessons.js").then((m) => () => m.mountLessons(root, id)),
    puzzles: () => import("./puzzles.js").then((m) => () => m.mountPuzzles(root, id, params)),
    leaderboard: () => import("./leaderboard.js").then((m) => () => m.mountLeaderboard(root, id)),
    player: id && (() => import("./player.js").then((m) => () => m.mountPlayer(root, id))),
    arenas: () => import("./arena.js").then((m) => () => m.mountArenas(root)),
    arena: id && (() => import("./arena.js").then((m) => () => m.mountArena(root, id))),
  };
  const page = Object.hasOwn(pages, parts[0]) && pages[parts[0]];
  const load = page ? page() : import("./lobby.js").then((m) => () => m.mountLobby(root));
  load
    .then((mount) => {
      if (token === routed) unmount = mount(); // else the user has moved on meanwhile
    })
    .catch((problem) => {
      if (token === routed) root.textContent = t("common.page_failed", { problem: problem.message });
    });
  window.scrollTo(0, 0);
}

/** The header's language switch; a change redraws the page in the new language. */
function installLanguages() {
  document.documentElement.lang = lang();
  applyStatic(document);
  const select = document.getElementById("lang");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    select.append(h("option", { value: code, lang: code, selected: code === lang() }, name));
  }
  select.addEventListener("change", () => setLang(select.value));
  window.addEventListener("rummy:lang", () => {
    select.value = lang();
    applyStatic(document);
    current = null; // the same route, drawn again in the new words
    route();
  });
}

installLanguages();
setting("fourColour");
setting("largeCards");
installKeyboard();
installAccount();
installInbox();
document.querySelector(".skip").addEventListener("click", (event) => {
  event.preventDefault();
  document.getElementById("app").focus();
});
window.addEventListener("hashchange", route);
route();
