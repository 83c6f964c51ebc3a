// Issue 17, first run: while no operator exists a setup token (stored hashed, 24 hours, the newest
// only) opens /admin/setup; the form's bad inputs get inline errors and change nothing; a good one
// creates the operator, logs them in and burns the token, so the link works once.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { hashToken } from "../../src/core/admin/sessions.ts";
import { issueSetupToken, SETUP_TOKEN_TTL } from "../../src/core/admin/setup.ts";
import { type Harness, harness } from "../helpers.ts";
import { auditRows, ORIGIN, sessionCookieOf } from "./support.ts";

let h: Harness;
beforeEach(() => (h = harness()));
afterEach(() => h.close());

const get = (path: string) => h.app.handle(new Request(`${ORIGIN}${path}`));
const post = (form: Record<string, string>) =>
  h.app.handle(new Request(`${ORIGIN}/admin/setup`, { method: "POST", headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() }));
const good = (token: string) => ({ token, user: "alice", password: "correct horse battery", repeat: "correct horse battery" });

describe("the setup link", () => {
  test("is stored only as its hash and opens the form", async () => {
    const token = (await issueSetupToken(h.gw))!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const db = new Database(h.dbPath, { readonly: true });
    const rows = JSON.stringify(db.query("SELECT * FROM console_setup_tokens").all());
    db.close();
    expect(rows).not.toContain(token);
    expect(rows).toContain(hashToken(token));
    const res = await get(`/admin/setup?token=${token}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("创建第一个管理员");
    expect(html).toContain(`name="token" value="${token}"`);
  });

  test("a wrong, replaced or expired token shows how to get a new one", async () => {
    const old = (await issueSetupToken(h.gw))!;
    const token = (await issueSetupToken(h.gw))!;
    for (const t of ["", "x", old, "A".repeat(43)]) {
      const res = await get(`/admin/setup?token=${t}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("设置链接无效或已过期");
    }
    h.clock.advance(SETUP_TOKEN_TTL - 1);
    expect((await get(`/admin/setup?token=${token}`)).status).toBe(200);
    h.clock.advance(1);
    expect((await get(`/admin/setup?token=${token}`)).status).toBe(404);
    expect((await post(good(token))).status).toBe(404);
    expect(await h.gw.store.admin.countOperators()).toBe(0);
  });

  test("no token is issued once an operator exists", async () => {
    await h.gw.store.admin.addOperator({ name: "bob", passwordHash: "x", now: 1 });
    expect(await issueSetupToken(h.gw)).toBeNull();
  });
});

describe("the setup form", () => {
  test("bad inputs: an inline error on the field (422), no operator, the link still works", async () => {
    const token = (await issueSetupToken(h.gw))!;
    const cases: [Record<string, string>, string, string][] = [
      [{ ...good(token), user: "" }, "user", "用户名为 1–32 个字符"],
      [{ ...good(token), user: "bad name!" }, "user", "用户名为 1–32 个字符"],
      [{ ...good(token), user: "CLI" }, "user", "该名称为系统保留"],
      [{ ...good(token), password: "short", repeat: "short" }, "password", "密码至少 10 个字符。"],
      [{ ...good(token), user: "longername12", password: "longername12", repeat: "longername12" }, "password", "密码不能与用户名相同。"],
      [{ ...good(token), repeat: "something else" }, "repeat", "两次输入的密码不一致。"],
    ];
    for (const [form, field, message] of cases) {
      const res = await post(form);
      expect({ form, status: res.status }).toEqual({ form, status: 422 });
      const html = await res.text();
      expect(html).toContain(`<p class="field-error" id="f-${field}-error">${message}`);
      expect(html).toContain(`name="token" value="${token}"`);
      expect(sessionCookieOf(res)).toBeUndefined();
    }
    expect(await h.gw.store.admin.countOperators()).toBe(0);
    expect((await get(`/admin/setup?token=${token}`)).status).toBe(200);
  });

  test("a good form creates the operator, logs them in and is audited; the link then works no more", async () => {
    const token = (await issueSetupToken(h.gw))!;
    const res = await post(good(token));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin");
    const cookie = `xpay_session=${sessionCookieOf(res)}`;
    expect((await h.app.handle(new Request(`${ORIGIN}/admin`, { headers: { cookie } }))).status).toBe(200);
    expect((await h.gw.store.admin.listOperators()).map((o) => o.name)).toEqual(["alice"]);
    expect((await auditRows(h)).map((e) => [e.actor, e.action])).toEqual([["alice", "operator.setup"]]);
    const again = await get(`/admin/setup?token=${token}`);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("已有管理员");
    expect((await post({ ...good(token), user: "mallory" })).status).toBe(410);
    expect((await h.gw.store.admin.listOperators()).map((o) => o.name)).toEqual(["alice"]);
  });

  test("from another origin it is refused before anything, the right token included", async () => {
    const token = (await issueSetupToken(h.gw))!;
    const res = await h.app.handle(
      new Request(`${ORIGIN}/admin/setup`, { method: "POST", headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(good(token)).toString() }),
    );
    expect(res.status).toBe(403);
    expect(await h.gw.store.admin.countOperators()).toBe(0);
  });
});
