// Accounts in the page: who is signed in (GET /api/me on load), the header's account button,
// and the dialog that signs up, signs in and signs out. Other pages ask `signedIn()`, listen
// with `onAccount`, and open the dialog with `askToSignIn` (a ranked party's invite page).
// The session is an HttpOnly cookie: the page never sees it, `fetch` sends it.
import { botBadgeFor } from "./account_badge.js";
import { buttonText, formProblems, refusalText, MAX_PASSWORD } from "./account_model.js";
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

function setMe(next) {
  me = next ? { name: next.name, bot: !!next.bot } : null;
  window.dispatchEvent(new CustomEvent(EVENT, { detail: me }));
}

// ----- the server --------------------------------------------------------------------------

const send = (method, url, body) =>
  fetch(url, {
    method,
    credentials: "same-origin",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });

/** Ask the server who is signed in (401: nobody). */
export function refresh() {
  known = send("GET", "/api/me")
    .then(async (response) => (response.ok ? response.json() : null))
    .catch(() => null)
    .then((answer) => {
      setMe(answer);
      return me;
    });
  return known;
}

/** Sign up (`mode` "up") or in ("in"): null when it worked, else the sentence why not. */
async function signInOrUp(mode, name, password) {
  let response;
  try {
    response = await send("POST", mode === "up" ? "/api/accounts" : "/api/session", { name, password });
  } catch {
    return t("account.offline");
  }
  if (response.ok) {
    setMe(await response.json());
    return null;
  }
  const body = await response.json().catch(() => null);
  return refusalText(mode, response.status, body, response.headers.get("Retry-After"));
}

/** Sign out: null when it worked, else the sentence why not. */
async function signOut() {
  try {
    const response = await send("DELETE", "/api/session");
    if (!response.ok) return refusalText("out", response.status, null, null);
  } catch {
    return t("account.offline");
  }
  setMe(null);
  return null;
}

// ----- the dialog ---------------------------------------------------------------------------

let dialog = null;
let closed = null; // resolves the promise of the dialog open now

function field(id, label, input, help) {
  const error = h("p", { class: "error field-error", id: `${id}-error`, testid: `${id}-error` });
  input.id = id;
  input.dataset.testid = id;
  input.setAttribute("aria-describedby", [help ? `${id}-help` : "", `${id}-error`].join(" ").trim());
  return {
    input,
    error,
    row: h("div", { class: "field" }, h("label", { for: id }, label), input,
      help ? h("p", { class: "help", id: `${id}-help` }, help) : null, error),
  };
}

/** The sign-in or sign-up form (`mode` "in" or "up"), with `why` above it (or nothing). */
function accountForm(mode, why) {
  const up = mode === "up";
  const name = field("account-name", t("account.name"),
    h("input", { type: "text", autocomplete: "username", autocapitalize: "none", spellcheck: false, maxlength: "64" }),
    up ? t("account.name_help") : null);
  const password = field("account-password", t("account.password"),
    h("input", { type: "password", autocomplete: up ? "new-password" : "current-password", maxlength: String(MAX_PASSWORD * 2) }),
    up ? t("account.password_help") : null);
  const repeat = up ? field("account-repeat", t("account.repeat"), h("input", { type: "password", autocomplete: "new-password" })) : null;
  const fields = { name, password, ...(repeat ? { repeat } : {}) };
  const error = h("p", { class: "error", testid: "account-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", testid: "account-submit" }, t(up ? "account.create" : "account.sign_in"));
  const other = h("p", { class: "account-other" }, t(up ? "account.have_one_question" : "account.make_one_question"), " ",
    h("button", { type: "button", class: "link-like", testid: up ? "account-have-one" : "account-make-one", onclick: () => showForm(up ? "in" : "up", why).focus() },
      t(up ? "account.have_one" : "account.make_one")));
  const form = h("form", {
    novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      const values = Object.fromEntries(Object.entries(fields).map(([key, made]) => [key, made.input.value]));
      const problems = formProblems(mode, values);
      for (const [key, made] of Object.entries(fields)) {
        made.error.textContent = problems[key] || "";
        made.input.setAttribute("aria-invalid", String(!!problems[key]));
      }
      const first = Object.keys(fields).find((key) => problems[key]);
      if (first) {
        error.textContent = "";
        fields[first].input.focus();
        return;
      }
      error.textContent = "";
      submit.disabled = true;
      const problem = await signInOrUp(mode, values.name.trim(), values.password);
      submit.disabled = false;
      if (problem) {
        error.textContent = problem;
        return;
      }
      finish(me);
    },
  },
  why ? h("p", { class: "account-why", testid: "account-why" }, why) : null,
  other,
  Object.values(fields).map((made) => made.row),
  error,
  h("div", { class: "row" }, submit, h("button", { type: "button", testid: "account-cancel", onclick: () => finish(me) }, t("common.close"))));
  return { form, first: name.input };
}

/** The signed-in face of the dialog: who, and Sign out. */
function signedInBody() {
  const error = h("p", { class: "error", testid: "account-error", role: "alert" });
  const out = h("button", { type: "button", class: "primary", testid: "dialog-sign-out" }, t("account.sign_out"));
  out.addEventListener("click", async () => {
    const problem = await signOut();
    if (problem) error.textContent = problem;
    else finish(null);
  });
  return {
    form: h("div", {},
      h("p", { testid: "account-who" }, t("account.signed_in_as", { name: me.name }), " ", botBadgeFor({ program: me.bot })),
      error,
      h("div", { class: "row" }, out, h("button", { type: "button", testid: "account-cancel", onclick: () => finish(me) }, t("common.close")))),
    first: out,
  };
}

/** Draw the dialog's face for `mode`; the control to focus first. */
function showForm(mode, why) {
  const title = me ? t("account.your_account") : t(mode === "up" ? "account.sign_up_title" : "account.sign_in_title");
  const body = me ? signedInBody() : accountForm(mode, why);
  fill(dialog, h("h2", { id: "account-title" }, title), body.form);
  return body.first;
}

function finish(result) {
  if (dialog && dialog.open) dialog.close();
  if (closed) {
    const done = closed;
    closed = null;
    done(result);
  }
}

/**
 * Open the account dialog: the sign-in form (`mode` "in"), the sign-up form ("up"), or, when
 * signed in, who you are and Sign out. `why` says what it is for ("a ranked party..."). Resolves
 * with the account signed in when it closes (null: nobody).
 */
export function openAccount({ mode = "in", why = "" } = {}) {
  if (!dialog) {
    dialog = h("dialog", { class: "account-dialog", testid: "account-dialog", "aria-labelledby": "account-title" });
    dialog.addEventListener("close", () => finish(me));
    document.body.append(dialog);
  }
  if (closed) finish(me); // one open at a time: a second call answers the first
  const result = new Promise((resolve) => (closed = resolve));
  const first = showForm(mode, why);
  if (!dialog.open) dialog.showModal();
  first.focus();
  return result;
}

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
    h("span", { class: "account-name", testid: "account-label" }, buttonText(me)),
    me ? botBadgeFor({ program: me.bot }) : null);
    if (me) button.setAttribute("aria-label", t("account.button_signed_in", { name: me.name }));
    const out = me
      ? h("button", { type: "button", class: "ghost account-out", testid: "sign-out", onclick: () => signOut() }, t("account.sign_out"))
      : null;
    fill(slot, button, out);
    slot.dataset.signedIn = String(!!me);
  };
  onAccount(draw);
  window.addEventListener("rummy:lang", draw);
  draw();
  refresh();
}
