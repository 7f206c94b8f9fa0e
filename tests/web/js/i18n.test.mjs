// The message catalogues (web/i18n.js): English and Japanese hold the same keys with the same
// placeholders, and every key the pages ask for by name exists. A string missing from a
// catalogue fails here.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { CATALOGUES, browserLang, listOf, t } from "../../../src/rummykit/web/i18n.js";

const WEB = fileURLToPath(new URL("../../../src/rummykit/web/", import.meta.url));

const placeholders = (entry) => {
  const texts = typeof entry === "object" ? Object.values(entry) : [entry];
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
};

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "i18n" ? [] : sources(path);
    return name.endsWith(".js") ? [path] : [];
  });
}

test("English and Japanese have the same areas, keys and placeholders", () => {
  assert.deepEqual(Object.keys(CATALOGUES.ja).sort(), Object.keys(CATALOGUES.en).sort());
  for (const [area, en] of Object.entries(CATALOGUES.en)) {
    const ja = CATALOGUES.ja[area];
    assert.deepEqual(Object.keys(ja).sort(), Object.keys(en).sort(), `area ${area}`);
    for (const [key, entry] of Object.entries(en)) {
      assert.ok(key.startsWith(`${area}.`), `${key} is in the ${area} area, so starts with "${area}."`);
      assert.deepEqual(placeholders(ja[key]), placeholders(entry), `placeholders of ${key}`);
      for (const value of [entry, ja[key]]) {
        if (typeof value === "object") assert.equal(typeof value.other, "string", `${key} has an "other" form`);
        else assert.equal(typeof value, "string", key);
        assert.ok(placeholders(value).length > 0 || String(Object.values(value)).trim() !== "", `${key} is empty`);
      }
    }
  }
});

test("every key a page asks for by name is in the catalogue", () => {
  const missing = [];
  for (const path of sources(WEB)) {
    const text = readFileSync(path, "utf8");
    for (const match of text.matchAll(/\bt\(\s*["'`]([a-z_]+\.[\w.]+)["'`]/g)) {
      if (!Object.hasOwn(CATALOGUES.en[match[1].split(".")[0]] || {}, match[1])) missing.push(`${path}: ${match[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("t fills placeholders, picks plural forms and falls back to the key", () => {
  assert.equal(t("common.cards", { count: 1 }, "en"), "1 card");
  assert.equal(t("common.cards", { count: 3 }, "en"), "3 cards");
  assert.equal(t("common.cards", { count: 3 }, "ja"), "3枚");
  assert.equal(t("common.page_failed", { problem: "gone" }, "en"), "This page could not be loaded: gone");
  assert.equal(t("common.page_failed", {}, "en"), "This page could not be loaded: {problem}");
  assert.equal(t("common.no_such_key"), "common.no_such_key");
  assert.equal(browserLang(["ja-JP", "en-US"]), "ja");
  assert.equal(browserLang(["fr-FR"]), "en");
  assert.equal(listOf(["A", "B", "C"], "en"), "A, B, and C");
});
