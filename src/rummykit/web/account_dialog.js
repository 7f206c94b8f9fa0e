// The account dialog: sign up, sign in, sign out (loaded by account.js when first opened).
import { botBadgeFor } from "./account_badge.js";
import { send, setMe, signedIn } from "./account.js";
import { formProblems, refusalText, MAX_PASSWORD } from "./account_model.js";
import { t } from "./i18n.js";
import { h, fill } from "./util.js";

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
export async function signOut() {
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
      finish(signedIn());
    },
  },
  why ? h("p", { class: "account-why", testid: "account-why" }, why) : null,
  other,
  Object.values(fields).map((made) => made.row),
  error,
  h("div", { class: "row" }, submit, h("button", { type: "button", testid: "account-cancel", onclick: () => finish(signedIn()) }, t("common.close"))));
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
      h("p", { testid: "account-who" }, t("account.signed_in_as", { name: signedIn().name }), " ", botBadgeFor({ program: signedIn().bot })),
      error,
      h("div", { class: "row" }, out, h("button", { type: "button", testid: "account-cancel", onclick: () => finish(signedIn()) }, t("common.close")))),
    first: out,
  };
}

/** Draw the dialog's face for `mode`; the control to focus first. */
function showForm(mode, why) {
  const me = signedIn();
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

/** Open the dialog (see account.js's `openAccount`). */
export function openAccount({ mode = "in", why = "" } = {}) {
  if (!dialog) {
    dialog = h("dialog", { class: "account-dialog", testid: "account-dialog", "aria-labelledby": "account-title" });
    dialog.addEventListener("close", () => finish(signedIn()));
    document.body.append(dialog);
  }
  if (closed) finish(signedIn()); // one open at a time: a second call answers the first
  const result = new Promise((resolve) => (closed = resolve));
  const first = showForm(mode, why);
  if (!dialog.open) dialog.showModal();
  first.focus();
  return result;
}
