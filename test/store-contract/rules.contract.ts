// Store.rules: operator message rules (unique by name) and the bounded table of payment-app
// notifications no rule recognised: a re-send counts on its row, the oldest seen go past `total`,
// and the bound holds when several instances record at once.
import { expect, test } from "bun:test";
import type { NewUnparsed } from "../../src/core/rules/store.ts";
import type { Store } from "../../src/core/store.ts";
import { type Ctx, T0 } from "./harness.ts";

const rule = (name: string, at = T0) => ({ name, pkg: "com.tencent.mm", titles: ["微信支付"], text: "^收款到账(?<amount>\\d+)元$", payType: "wxpay", createdAt: at });

const msg = (key: string, now: number, o: Partial<NewUnparsed> = {}): NewUnparsed => ({
  pid: 1001, key, pkg: "com.tencent.mm", title: "微信支付", text: `收款到账${key}元`, reason: "no payment wording matched", now, ...o,
});

async function instances(ctx: Ctx, n: number): Promise<Store[]> {
  const all = [ctx.store];
  while (all.length < n) all.push(await ctx.another());
  return all;
}

export function rulesContract(ctx: Ctx): void {
  const rules = () => ctx.store.rules;

  test("rules: added in order, a taken name refused, removed by name", async () => {
    const a = await rules().addRule(rule("wxpay-1"));
    expect(a).toEqual({ kind: "added", rule: { id: expect.any(Number), ...rule("wxpay-1"), disabled: "" } });
    expect((await rules().addRule(rule("wxpay-2", T0 + 1))).kind).toBe("added");
    expect(await rules().addRule({ ...rule("wxpay-1"), pkg: "other" })).toEqual({
      kind: "refused", reason: "a rule named wxpay-1 exists already; choose another --name or remove it first",
    });
    expect((await rules().listRules()).map((r) => [r.name, r.pkg, r.createdAt])).toEqual([["wxpay-1", "com.tencent.mm", T0], ["wxpay-2", "com.tencent.mm", T0 + 1]]);
    expect(await rules().removeRule("wxpay-1")).toBe(true);
    expect(await rules().removeRule("wxpay-1")).toBe(false);
    expect((await rules().listRules()).map((r) => r.name)).toEqual(["wxpay-2"]);
  });

  test("rules: a title is its list of names, kept as given (a name may hold | or brackets); a new rule runs", async () => {
    const names = ["微信支付", "微信收款助手", "[店员消息]", "a|b", "x(y)"];
    expect((await rules().addRule({ ...rule("many"), titles: names })).kind).toBe("added");
    expect(await rules().listRules()).toEqual([expect.objectContaining({ name: "many", titles: names, disabled: "" })]);
  });

  test("unparsed: a re-send counts on its row; newest seen first; pid, since and limit narrow; forget drops one", async () => {
    const limits = { total: 10 };
    await rules().recordUnparsed(msg("a", T0), limits);
    await rules().recordUnparsed(msg("b", T0 + 10), limits);
    await rules().recordUnparsed(msg("a", T0 + 20), limits);
    await rules().recordUnparsed(msg("a", T0 + 5), limits); // late: counted, last_seen stays
    await rules().recordUnparsed(msg("a", T0 + 30, { pid: 1002 }), limits); // another merchant's is its own row
    const all = await rules().listUnparsed({});
    expect(all.map((m) => [m.pid, m.text, m.count, m.firstSeen, m.lastSeen])).toEqual([
      [1002, "收款到账a元", 1, T0 + 30, T0 + 30],
      [1001, "收款到账a元", 3, T0, T0 + 20],
      [1001, "收款到账b元", 1, T0 + 10, T0 + 10],
    ]);
    expect(all[1]).toMatchObject({ pkg: "com.tencent.mm", title: "微信支付", reason: "no payment wording matched" });
    expect((await rules().listUnparsed({ pid: 1001 })).map((m) => m.text)).toEqual(["收款到账a元", "收款到账b元"]);
    expect((await rules().listUnparsed({ since: T0 + 20 })).length).toBe(2);
    expect((await rules().listUnparsed({ limit: 1 })).map((m) => m.pid)).toEqual([1002]);
    await rules().forgetUnparsed(1001, "a");
    expect((await rules().listUnparsed({})).map((m) => [m.pid, m.text])).toEqual([[1002, "收款到账a元"], [1001, "收款到账b元"]]);
  });

  test("unparsed: past `total` the oldest seen go; a re-sent old one is kept", async () => {
    const limits = { total: 3 };
    for (const [key, at] of [["a", 1], ["b", 2], ["c", 3]] as const) await rules().recordUnparsed(msg(key, T0 + at), limits);
    await rules().recordUnparsed(msg("a", T0 + 4), limits); // a is now the newest seen
    await rules().recordUnparsed(msg("d", T0 + 5), limits);
    expect((await rules().listUnparsed({})).map((m) => m.text)).toEqual(["收款到账d元", "收款到账a元", "收款到账c元"]);
    await rules().recordUnparsed(msg("e", T0 + 6), { total: 1 }); // a lower cap trims to it at once
    expect((await rules().listUnparsed({})).map((m) => m.text)).toEqual(["收款到账e元"]);
  });

  test("unparsed at once on three instances: the table stays within `total`, one re-sent message is one row with every count", async () => {
    const all = await instances(ctx, 3);
    const limits = { total: 5 };
    await Promise.all(Array.from({ length: 90 }, (_, i) => all[i % 3]!.rules.recordUnparsed(msg(`k${i}`, T0 + (i % 7)), limits)));
    expect((await rules().listUnparsed({ limit: 100 })).length).toBe(5);
    await Promise.all(Array.from({ length: 30 }, (_, i) => all[i % 3]!.rules.recordUnparsed(msg("same", T0 + 100 + i), limits)));
    const rows = await rules().listUnparsed({ limit: 100 });
    expect(rows.length).toBe(5);
    expect(rows[0]).toMatchObject({ text: "收款到账same元", count: 30, firstSeen: expect.any(Number), lastSeen: T0 + 129 });
  });
}
