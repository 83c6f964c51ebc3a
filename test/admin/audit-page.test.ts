// Issue 17: the audit log in the console: every entry's who, what, target, when, IP, before/after
// and reason; filters by actor and action; paging by id that keeps the filter; the language switch.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { audit } from "../../src/core/admin/audit.ts";
import { AUDIT_PAGE_SIZE } from "../../src/admin/pages/audit.tsx";
import { type AdminHarness, adminHarness } from "./support.ts";

let h: AdminHarness;
beforeAll(async () => {
  h = await adminHarness();
  // 1 row from the harness (operator.add of alice), then 120 of ours.
  for (let i = 1; i <= 120; i++) {
    await audit(h.gw, {
      actor: { name: i % 2 ? "alice" : "bob", ip: "203.0.113.4" },
      action: i % 4 ? "order.close" : "notify.replay",
      target: `order:T${i}`,
      before: { status: 1 },
      after: { status: 3, secret: "never shown" },
      reason: i === 120 ? "payer asked" : "",
    });
  }
});
afterAll(() => h.close());

const ids = (html: string) => [...html.matchAll(/<tr data-id="(\d+)">/g)].map((m) => Number(m[1]));
const links = (html: string) => ({
  newer: html.match(/<a href="([^"]+)" rel="prev"/)?.[1]?.replaceAll("&amp;", "&"),
  older: html.match(/<a href="([^"]+)" rel="next"/)?.[1]?.replaceAll("&amp;", "&"),
});

describe("the audit page", () => {
  test("newest first, a page at a time, with every field and secrets redacted", async () => {
    const html = await (await h.get("/admin/audit")).text();
    expect(ids(html)).toEqual(Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => 121 - i));
    const row = html.slice(html.indexOf('<tr data-id="121">'), html.indexOf('<tr data-id="120">'));
    for (const text of ["bob", "notify.replay", "order:T120", "203.0.113.4", "{&quot;status&quot;:1}", "&quot;secret&quot;:&quot;***&quot;", "payer asked", "<time datetime="]) expect(row).toContain(text);
    expect(html).not.toContain("never shown");
    expect(links(html)).toEqual({ newer: undefined, older: "/admin/audit?before=72" });
  });

  test("older and newer pages meet without gaps or overlaps, and end", async () => {
    const seen: number[] = [];
    let next: string | undefined = "/admin/audit";
    let last = "";
    while (next) {
      last = await (await h.get(next)).text();
      seen.push(...ids(last));
      next = links(last).older;
    }
    expect(seen).toEqual(Array.from({ length: 121 }, (_, i) => 121 - i));
    expect(links(last).newer).toBe("/admin/audit?after=21");
    const back = await (await h.get("/admin/audit?after=21")).text();
    expect(ids(back)).toEqual(Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => 71 - i));
    expect(links(back)).toEqual({ newer: "/admin/audit?after=71", older: "/admin/audit?before=22" });
  });

  test("filters by actor and action, kept in the paging links and the form", async () => {
    const html = await (await h.get("/admin/audit?user=ALICE&action=order.close")).text();
    const shown = ids(html);
    expect(shown.length).toBe(AUDIT_PAGE_SIZE);
    expect(shown.every((id) => id % 2 === 0 && (id - 1) % 4 !== 0)).toBe(true); // odd i (alice) and not a multiple of 4, id = i + 1
    expect(links(html).older).toMatch(/^\/admin\/audit\?user=ALICE&action=order.close&before=\d+$/);
    expect(html).toContain('name="user" type="search" value="ALICE"');
    // The action is a choice of labelled actions, the chosen one kept; no placeholder that looks like a value.
    expect(html).toMatch(/<option value="order.close" selected>[^<]*关闭订单/);
    expect(html).toContain('<option value="session.login">登录</option>');
    expect(html).not.toContain('placeholder="session.login"');
    const none = await (await h.get("/admin/audit?action=nothing.like.this")).text();
    expect(none).toContain("没有符合条件的记录。");
    expect(none).toContain('<option value="nothing.like.this" selected>nothing.like.this</option>');
    expect(links(none)).toEqual({ newer: undefined, older: undefined });
  });

  test("junk paging values are ignored, not an error", async () => {
    for (const q of ["before=abc", "after=-1", "before=1e9", `user=${"x".repeat(500)}`]) expect((await h.get(`/admin/audit?${q}`)).status).toBe(200);
  });
});

describe("language", () => {
  test("the switch sets a cookie for a year and comes back; English labels follow; the way back stays in the console", async () => {
    const res = await h.get("/admin/lang/en?next=%2Fadmin%2Faudit");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/audit");
    expect(res.headers.get("set-cookie")).toBe("xpay_lang=en; Path=/admin; SameSite=Strict; HttpOnly; Max-Age=31536000");
    const html = await (await h.get("/admin/audit", { cookie: `${h.login.cookie}; xpay_lang=en` })).text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<h1>Audit log</h1>");
    expect(html).toContain(">Sessions</a>");
    expect((await h.get("/admin/lang/en?next=https://evil.example")).headers.get("location")).toBe("/admin");
    expect((await h.get("/admin/lang/fr?next=/admin/audit")).headers.get("set-cookie")).toBeNull();
  });
});
