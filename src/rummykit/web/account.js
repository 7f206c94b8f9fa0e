// Accounts in the page: who is signed in (GET /api/me on load) and the header's account button.
// Other pages ask `signedIn()`, listen with `onAccount`, and open the dialog that signs up, in
// and out with `openAccount` or `askToSignIn` (a ranked party's invite page); the dialog's
// module (account_dialog.js) is loaded when it is first opened, so a table's first load does
// not fetch it. The session is an HttpOnly cookie: the page never sees it, `fetch` sends it.
import { botBadgeFor } from "./account_badge.js";
import { t } from "./i18n.js";
import { h, fill } from "./util.js";

const EVENT = "rummy:account";

let me = null; // {name, bot} once known to be signed in
let known = null; // the promise of the first GET /api/me

/** Who is signed in, as last known: {name, bot}, or null. */
export const signedIn = () => me;

/** Who is signed in, once the page has asked the server (at once after the first answer). */
export const whenKnown = () => known || refresh();

/** Call `listener(me)` after each sign-in or sign-out; returns the way to stop. */
export function onAccount(listener) {
  const heard = (event) => listener(event.detail);
  window.addEventListener(EVENT, heard);
  return () => window.removeEventListener(EVENT, heard);
}

/** Keep who is signed in now (the dialog's, after signing in, up or out), and tell. */
export function setMe(next) {
  me = next ? { name: next.name, bot: !!next.bot } : null;
  window.dispatchEvent(new CustomEvent(EVENT, { detail: me }));
}

// ----- the server --------------------------------------------------------------------------

/** A request of the account API, with the session's cookie. */
export const send = (method, url, body) =>
  fetch(url, {
    method,
    credentials: "same-origin",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });

/** Ask the server who is signed in (`{signed_in: false}`: nobody). */
export function refresh() {
  known = send("GET", "/api/me")
    .then(async (response) => (response.ok ? response.json() : null))
    .then((answer) => (answer && answer.signed_in ? answer : null))
    .catch(() => null)
    .then((answer) => {
      setMe(answer);
      return me;
    });
  return known;
}

const dialogModule = () => import("./account_dialog.js");

/**
 * Open the account dialog: the sign-in form (`mode` "in"), the sign-up form ("up"), or, when
 * signed in, who you are and Sign out. `why` says what it is for ("a ranked party..."). Resolves
 * with the account signed in when it closes (null: nobody).
 */
export const openAccount = (options = {}) => dialogModule().then((dialog) => dialog.openAccount(options));

/** Ask to sign in (or sign up) for `why`; the account once signed in, or null. */
export const askToSignIn = (why) => openAccount({ mode: "in", why });

// ----- the header --------------------------------------------------------------------------

/** The header's account button (and, on wide screens, Sign out), redrawn on each change. */
export function installAccount() {
  const slot = document.getElementById("account-slot");
  if (!slot) return;
  const draw = () => {
    const button = h("button", {
      type: "button", class: "ghost account-button", testid: "account-button", "aria-haspopup": "dialog",
      onclick: () => openAccount(),
    },
    h("span", { class: "account-name", testid: "account-label" }, me ? me.name : t("account.sign_in")),
    me ? botBadgeFor({ program: me.bot }) : null);
    if (me) button.setAttribute("aria-label", t("account.button_signed_in", { name: me.name }));
    const out = me
      ? h("button", { type: "button", class: "ghost account-out", testid: "sign-out", onclick: () => dialogModule().then((dialog) => dialog.signOut()) }, t("account.sign_out"))
      : null;
    // Redrawn when /api/me answers: a button the player already focused keeps the focus.
    const focused = document.activeElement?.dataset?.testid;
    fill(slot, button, out);
    if (focused === "account-button") button.focus();
    else if (focused === "sign-out" && out) out.focus();
    slot.dataset.signedIn = String(!!me);
  };
  onAccount(draw);
  window.addEventListener("rummy:lang", draw);
  draw();
  refresh();
}
