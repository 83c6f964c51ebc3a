// Migration 018 on both stores (test/store/rule-titles-018.test.ts, test/pg/rule-titles-018.test.ts):
// rules saved before it with a title pattern. A literal alternation becomes its names; anything
// else (the issue's ^(?:微信支付|[\u4e00-\u9fa5]{3})$ first) keeps its text and is disabled with a
// reason the operator reads in `xpay rules list`.
import { expect } from "bun:test";
import type { StoredRule } from "../../src/core/rules/store.ts";

/** [title as stored before 018, the names after it, or null: disabled]. */
export const LEGACY_TITLES: [string, string[] | null][] = [
  ["^微信支付$", ["微信支付"]],
  ["^(?:微信支付|微信收款助手)$", ["微信支付", "微信收款助手"]],
  ["^(微信支付|微信收款助手)$", ["微信支付", "微信收款助手"]],
  ["^(?:[店员消息]|店员通)$", null], // brackets: a character class, not a name
  [String.raw`^(?:微信支付|[\u4e00-\u9fa5]{3})$`, null], // issue 27 item 9: any three-letter name
  ["^微信支付.?$", null],
  ["^(?:微信支付||微信收款助手)$", null], // an empty alternative matches an empty title
  ["^微信支付|张三$", null], // two halves, each anchored at one end only
  ["^(?:微信支付)|(?:张三)$", null],
  [String.raw`^\u5fae\u4fe1\u652f\u4ed8$`, null],
  [String.raw`^收款(?<amount>\d+)元$`, null], // the amount in the title: a pattern
  ["^$", null],
  ["微信支付", null], // a hand-edited row with no anchors
];

export const legacyRow = (i: number) => ({ name: `legacy-${i}`, package: "com.tencent.mm", title: LEGACY_TITLES[i]![0], text: String.raw`^收款到账(?<amount>\d+)元$`, pay_type: "wxpay", created_at: 1_800_000_000 + i });

/** What listRules answers after the migration, row by row. */
export function expectMigrated(rules: StoredRule[]): void {
  expect(rules.map((r) => r.name)).toEqual(LEGACY_TITLES.map((_, i) => `legacy-${i}`));
  LEGACY_TITLES.forEach(([title, names], i) => {
    const r = rules[i]!;
    if (names) expect({ title, titles: r.titles, disabled: r.disabled }).toEqual({ title, titles: names, disabled: "" });
    else {
      expect({ title, titles: r.titles }).toEqual({ title, titles: [title] });
      expect(r.disabled).toStartWith("its title is a pattern, not a list of names: remove the rule and add it again with each exact sender name as its own --title");
    }
    expect(r.text).toBe(String.raw`^收款到账(?<amount>\d+)元$`);
  });
}
