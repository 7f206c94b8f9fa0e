// The rule forms' words (web/rule_words.js): the rules area's words when the catalogue has
// the key, else the server's English, without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import { has, setLang, t } from "../../../src/rummykit/web/i18n.js";
import { localField, presetName, presetSummary, tieReason, valueKey } from "../../../src/rummykit/web/rule_words.js";

setLang("en", { remember: false });

const ACES = {
  name: "aces", kind: "choice", title: "Aces (server)", help: "Where an ace goes (server).", none: null,
  choices: [{ value: "low", label: "Low (server)" }, { value: "low_or_high", label: "Both (server)" }],
};

/** The catalogue's words for `key` when it has them, else the server's `fallback`. */
const expected = (key, fallback) => (has(key, "en") ? t(key) : fallback);

test("a value's key is its JSON, strings bare", () => {
  assert.deepEqual([valueKey("low"), valueKey(15), valueKey(true), valueKey(null)], ["low", "15", "true", "null"]);
});

test("a field keeps its shape and takes the rules area's words where there are some", () => {
  for (const code of ["en", "ja"]) {
    setLang(code, { remember: false });
    const field = localField(ACES, "classic");
    assert.equal(field.name, "aces");
    assert.equal(field.title, expected("rules.option.aces", ACES.title));
    assert.equal(field.help, expected("rules.help.aces", ACES.help));
    assert.equal(field.none, null);
    assert.deepEqual(field.choices.map((choice) => choice.value), ["low", "low_or_high"]);
    assert.equal(field.choices[0].label, expected("rules.value.aces.low", "Low (server)"));
    assert.equal(presetSummary("nowhere", { summary: "As sent." }), "As sent.");
    assert.equal(tieReason("nowhere", { follower: "x", reason: "Because." }), "Because.");
  }
  setLang("en", { remember: false });
});

test("a preset's name is the catalogue's, in English the name itself (issue 27)", () => {
  assert.equal(presetName("classic"), "classic");
  assert.equal(presetName("500"), "500");
  assert.equal(presetName("no_such_preset"), "no_such_preset");
  setLang("ja", { remember: false });
  assert.equal(presetName("classic"), "クラシック");
  assert.equal(presetName("boathouse"), "ボートハウス");
  setLang("en", { remember: false });
});
