// Accounts without a browser (web/account_model.js): what a sign-up form may send, the
// server's refusals in our words, the lobby's ranked choice; and the ranked parts of the
// party's model (web/party/model.js). Run by tests/web/test_javascript.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang, t } from "../../../src/rummykit/web/i18n.js";
import {
  ACCOUNT_NAME,
  ACCOUNT_REFUSALS,
  MAX_PASSWORD,
  MIN_PASSWORD,
  RANKED_DEFAULT_TIMER,
  formProblems,
  rankedChoice,
  rankedTimer,
  refusalText,
  retrySeconds,
} from "../../../src/rummykit/web/account_model.js";
import { isProgram } from "../../../src/rummykit/web/account_badge.js";
import { partyRefusalText, rankedLine, rankedSettings } from "../../../src/rummykit/web/party/model.js";

setLang("en", { remember: false }); // the sentences below are the English catalogue's

const signUp = (name, password, repeat = password) => formProblems("up", { name, password, repeat });

test("a name is 3 to 20 letters, digits, _ or -, as the server's ACCOUNT_NAME", () => {
  for (const good of ["Ada", "a_b-c", "x".repeat(20), "R2D2"]) assert.ok(ACCOUNT_NAME.test(good), good);
  for (const bad of ["Al", "x".repeat(21), "Ada Lovelace", "Zoë", "a.b", ""]) assert.ok(!ACCOUNT_NAME.test(bad), bad);
  assert.deepEqual(signUp("Ada", "long enough"), {});
  assert.equal(signUp("Al", "long enough").name, "A name is 3 to 20 letters, digits, _ or -, with no spaces.");
  assert.equal(signUp("  ", "long enough").name, "Type your account name.");
});

test("a password is 8 to 128 characters, counted as people count them", () => {
  assert.equal(signUp("Ada", "x".repeat(MIN_PASSWORD - 1)).password, "A password needs at least 8 characters.");
  assert.deepEqual(signUp("Ada", "x".repeat(MIN_PASSWORD)), {});
  assert.deepEqual(signUp("Ada", "x".repeat(MAX_PASSWORD)), {});
  assert.equal(signUp("Ada", "x".repeat(MAX_PASSWORD + 1)).password, "A password has at most 128 characters.");
  assert.deepEqual(signUp("Ada", "🂡".repeat(MIN_PASSWORD)), {}); // 8 cards are 16 UTF-16 units
});

test("signing up asks for the same password twice; signing in does not", () => {
  assert.equal(signUp("Ada", "long enough", "long enougH").repeat, "The two passwords differ: type the same one twice.");
  assert.deepEqual(formProblems("in", { name: "Ada", password: "short" }), {}); // the server judges
  assert.deepEqual(Object.keys(formProblems("in", { name: "", password: "" })).sort(), ["name", "password"]);
});

test("the server's refusals are said in our words, with the wait of a 429", () => {
  assert.equal(refusalText("up", 409, { error: "x", code: "name_taken" }, null), "That name is taken: choose another.");
  assert.equal(refusalText("in", 401, { code: "bad_login" }, null), "No account has that name and password: check both.");
  assert.equal(refusalText("in", 429, { code: "too_many_attempts" }, "42"), "Too many tries: wait 42 seconds, then try again.");
  assert.equal(refusalText("in", 429, null, "1"), "Too many tries: wait 1 second, then try again.");
  assert.equal(refusalText("in", 429, null, null), "Too many tries: wait a little, then try again.");
  assert.match(refusalText("up", 400, { error: "name: a name is..." }, null), /3 to 20 letters/);
  assert.match(refusalText("in", 403, null, null), /reload the page/);
  assert.equal(refusalText("in", 500, null, null), "That did not work (the server answered 500): try again.");
  setLang("ja", { remember: false });
  assert.equal(refusalText("up", 409, null, null), t("refusals.name_taken", {}, "ja"));
  assert.notEqual(refusalText("up", 409, null, null), t("refusals.name_taken", {}, "en"));
  setLang("en", { remember: false });
});

test("a password with control characters is refused before it is sent", () => {
  assert.equal(signUp("Ada", "\u0000".repeat(MIN_PASSWORD)).password, t("account.password_control"));
  assert.equal(signUp("Ada", "tab\tin a phrase").password, t("account.password_control"));
  assert.deepEqual(signUp("Ada", "パスワードは長い文です"), {}); // any letters people type
  assert.deepEqual(formProblems("in", { name: "Ada", password: "\u0000".repeat(MIN_PASSWORD) }), {}); // the server judges
});

// Each account refusal as the server sends it: status, body (its English sentence, reason and
// params), Retry-After.
const refused = (code, error, params = {}, extra = {}) => ({ error, code, reason: code, params, ...extra });
const SERVER_REFUSALS = {
  bad_login: [401, refused("bad_login", "No account has that name and password: check both."), null],
  name_looks_taken: [409, refused("name_looks_taken", "That name looks too much like alice's: choose another.", { name: "alice" }, { like: "alice" }), null],
  name_not_allowed: [400, refused("name_not_allowed", "A name may not hold the mark BOT (the page marks programs' accounts itself), nor invisible characters: choose another."), null],
  name_taken: [409, refused("name_taken", "That name is taken: choose another."), null],
  too_many_accounts: [429, refused("too_many_accounts", "Too many new accounts from your address: wait 60 minutes, then try again.", { count: 60 }), "3600"],
  too_many_attempts: [429, refused("too_many_attempts", "Too many tries: wait 42 seconds, then try again.", { count: 42 }), "42"],
  weak_password: [400, refused("weak_password", "That password is too easy to guess: use a few uncommon words, or more characters. This is a top-10 common password.", { advice: "This is a top-10 common password." }), null],
};

test("the new account refusals are said in our words, with the name and the wait", () => {
  const said = (code, retryAfter = SERVER_REFUSALS[code][2]) => refusalText("up", SERVER_REFUSALS[code][0], SERVER_REFUSALS[code][1], retryAfter);
  assert.equal(said("name_looks_taken"), "That name looks too much like alice's: choose another.");
  assert.equal(refusalText("up", 409, { error: "x", code: "name_looks_taken" }, null), t("account.name_looks_taken_unnamed"));
  assert.match(said("name_not_allowed"), /mark BOT/);
  assert.equal(said("too_many_accounts"), "Too many new accounts from your address: wait 60 minutes, then try again.");
  // a body with a code alone: the wait from Retry-After
  const alone = { error: "x", code: "too_many_accounts" };
  assert.equal(refusalText("up", 429, alone, "59"), "Too many new accounts from your address: wait 1 minute, then try again.");
  assert.equal(refusalText("up", 429, alone, null), t("account.too_many_accounts_later"));
  // in English, the server's sentence: it carries zxcvbn's advice, which zxcvbn has in English only
  assert.equal(said("weak_password"), SERVER_REFUSALS.weak_password[1].error);
  assert.equal(refusalText("up", 400, { code: "weak_password" }, null), "That password is too easy to guess: use a few uncommon words, or more characters.");
  // the page's own codes keep its words, whatever the server says
  assert.equal(refusalText("up", 409, { error: "x", code: "name_taken" }, null), "That name is taken: choose another.");
  // a code the page has no words for: the server's sentence says why
  assert.equal(refusalText("up", 400, { error: "Something new.", code: "something_new" }, null), "Something new.");
});

test("a Japanese page says every account refusal in Japanese, zxcvbn's advice included", () => {
  assert.deepEqual(Object.keys(SERVER_REFUSALS).sort(), [...ACCOUNT_REFUSALS].sort());
  setLang("ja", { remember: false });
  try {
    for (const [code, [status, body, retryAfter]] of Object.entries(SERVER_REFUSALS)) {
      const text = refusalText("up", status, body, retryAfter);
      assert.notEqual(text, body.error, code);
      // no English word: only the names the sentence quotes (an account's, the BOT mark)
      const latin = (text.match(/[A-Za-z]{2,}/g) || []).filter((word) => !["alice", "BOT"].includes(word));
      assert.deepEqual(latin, [], `${code}: ${text}`);
    }
    assert.equal(refusalText("up", 409, ...SERVER_REFUSALS.name_looks_taken.slice(1)), t("refusals.name_looks_taken", { name: "alice" }, "ja"));
    assert.match(refusalText("up", 429, ...SERVER_REFUSALS.too_many_accounts.slice(1)), /60分/);
    assert.equal(refusalText("up", 400, ...SERVER_REFUSALS.weak_password.slice(1)), t("refusals.weak_password", {}, "ja"));
  } finally {
    setLang("en", { remember: false });
  }
});

test("Retry-After is seconds or an HTTP date", () => {
  assert.equal(retrySeconds("30"), 30);
  assert.equal(retrySeconds(""), null);
  assert.equal(retrySeconds("soon"), null);
  const now = Date.parse("2025-01-01T00:00:00Z");
  assert.equal(retrySeconds("Wed, 01 Jan 2025 00:01:30 GMT", now), 90);
  assert.equal(retrySeconds("Tue, 31 Dec 2024 00:00:00 GMT", now), 0);
});

test("ranked may be ticked only when signed in, and says why not", () => {
  const out = rankedChoice(null, [30, 60]);
  assert.equal(out.enabled, false);
  assert.match(out.why, /sign in/);
  const signedIn = rankedChoice({ name: "Ada", bot: false }, [30, 60]);
  assert.equal(signedIn.enabled, true);
  assert.deepEqual(signedIn.timers, [30, 60]);
  assert.equal(rankedChoice({ name: "Ada" }, []).enabled, false); // no timer offered: no ranked
});

test("ticking ranked keeps a timer it allows, else picks 60 seconds", () => {
  assert.equal(RANKED_DEFAULT_TIMER, 60);
  assert.equal(rankedTimer(null, [30, 60]), 60);
  assert.equal(rankedTimer(30, [30, 60]), 30);
  assert.equal(rankedTimer(45, [30, 60]), 60);
  assert.equal(rankedTimer(null, [20, 40]), 40);
  assert.equal(rankedTimer(null, []), null);
});

test("the party page says whether its games are rated", () => {
  assert.deepEqual(rankedLine({ ranked: true }), { ranked: true, text: "Ranked: these games change your rating." });
  assert.deepEqual(rankedLine({ ranked: false }), { ranked: false, text: "Friendly: not rated." });
  assert.deepEqual(rankedLine({}), { ranked: false, text: "Friendly: not rated." }); // an older server
});

test("turning a party ranked sets a timer when it has none, and only then", () => {
  assert.deepEqual(rankedSettings({ turn_timer: null }, true, 60), { ranked: true, turn_timer: 60 });
  assert.deepEqual(rankedSettings({ turn_timer: 30 }, true, 60), { ranked: true });
  assert.deepEqual(rankedSettings({ turn_timer: null }, false, 60), { ranked: false });
});

test("party refusals are worded from their reason and params; others as the server said them", () => {
  const refused = (reason, message = "server words", params = {}) => ({ code: reason, reason, message, params });
  assert.equal(partyRefusalText(refused("ranked_computer")), "A ranked party seats people only: remove the computer players first.");
  assert.equal(partyRefusalText(refused("ranked_timer")), "A ranked party needs a turn timer of 30 or 60 seconds: choose one.");
  assert.match(partyRefusalText(refused("ranked_busy", "", { names: ["Bob"] })), /^Bob is playing another ranked game: one ranked game at a time/);
  assert.match(partyRefusalText(refused("ranked_busy", "", { names: ["Bob", "Cy"] })), /^Bob and Cy are playing other ranked games/);
  assert.match(partyRefusalText(refused("ranked_account", "", { names: ["Cy"] })), /Cy must leave and join again signed in/);
  // a join's 409 body: {error, code, watch}; on the invite page it means "sign in"
  assert.equal(partyRefusalText({ error: "x", code: "ranked_account", watch: false }, { joining: true }), "This party is ranked: sign in to an account to join it.");
  assert.match(partyRefusalText(refused("ranked_wait", "", { names: ["Bob"], seconds: 600, count: 10 })), /about 10 minutes\.$/);
  assert.equal(partyRefusalText(refused("not_ready", "", { names: ["Ada", "Bob"], count: 2 })), "Ada and Bob are not ready yet.");
  // issue 27: a reason the catalogues word is said in the page's language, whatever the
  // server's English; a body with a code alone is worded by the code; another as it came
  assert.equal(partyRefusalText(refused("not_host", "Only the host may.")), "Only the host can do that.");
  assert.equal(partyRefusalText({ error: "Every seat of this party is taken.", code: "party_full" }), "Every seat of this party is taken.");
  assert.equal(partyRefusalText({ code: "bad_message", reason: "unknown", message: "No such thing." }), "No such thing.");
  setLang("ja", { remember: false });
  assert.equal(partyRefusalText({ error: "Every seat of this party is taken.", code: "party_full" }), "このパーティーの席はすべて埋まっています。");
  assert.equal(partyRefusalText(refused("not_host", "Only the host can do that.")), "それはホストだけができます。");
  assert.equal(partyRefusalText(refused("no_such_member", "There is no such member.")), "そのメンバーはいません。");
  assert.match(partyRefusalText(refused("ranked_busy", "", { names: ["Bob", "Cy"] })), /^Bob、Cyさんが別のレート戦の最中です。/);
  setLang("en", { remember: false });
});

test("a program's account is marked by `program`, and absent means a person", () => {
  assert.equal(isProgram({ name: "Ada" }), false);
  assert.equal(isProgram({ name: "bot7", program: true }), true);
  assert.equal(isProgram(null), false);
});
