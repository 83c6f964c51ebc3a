// The dashboard's texts are all in use: a key no page names (the foundation's placeholder
// "dashboard.coming", the old session line "dashboard.sessions") is dead weight that translators
// keep in step for nothing. Keys are named literally by the dashboard pages (none is built from parts).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { en } from "../../src/admin/i18n/en.ts";
import { zh } from "../../src/admin/i18n/zh.ts";

test("every dashboard.* text key is used by a page, in both languages", () => {
  const dir = "src/admin/pages";
  const pages = readdirSync(dir).filter((f) => /\.tsx?$/.test(f)).map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
  const keys = Object.keys(zh).filter((k) => k.startsWith("dashboard."));
  expect(keys.length).toBeGreaterThan(10);
  expect(keys.filter((k) => !pages.includes(`"${k}"`))).toEqual([]);
  expect(Object.keys(en).filter((k) => k.startsWith("dashboard.")).sort()).toEqual(keys.sort());
});
