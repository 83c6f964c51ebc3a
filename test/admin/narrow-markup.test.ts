// The phone layout's markup and style rules, in-process: each list page's table sits in a
// `table-wrap cards` box, and every cell of a row either says what it is (data-label, the column's
// heading in the page's language) or places itself (c-lead, c-title, c-badge, c-actions, c-hide),
// so the card layout in console.css has what it needs; the stylesheet wraps the menu and turns
// `.cards` rows into cards only under 641 px. The browser side is e2e/admin-narrow.e2e.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness } from "./support.ts";

let h: AdminHarness;
beforeAll(async () => {
  h = await adminHarness();
  await seed(h);
  await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
  await amountReport(h, 1000);
});
afterAll(() => h.close());

const PLACED = ["c-lead", "c-title", "c-badge", "c-actions", "c-hide"];

/** The <td> tags of the first body row of the table with this id. */
function firstRowCells(html: string, id: string): string[] {
  const table = html.slice(html.indexOf(`<table class="table" id="${id}">`));
  const body = table.slice(table.indexOf("<tbody>"), table.indexOf("</tbody>"));
  const row = body.slice(body.indexOf("<tr"), body.indexOf("</tr>"));
  return [...row.matchAll(/<td[^>]*>/g)].map((m) => m[0]);
}

const PAGES: [string, string, string][] = [
  ["/admin/orders", "orders-table", "商户订单号 / 商品"],
  ["/admin/reports", "reports-table", "时间"],
  ["/admin/accounts", "accounts-table", "监控端"],
  ["/admin/notifications", "outbox-table", "尝试"],
  ["/admin/audit", "audit-table", "操作人"],
  ["/admin/sessions", "sessions-table", "登录时间"],
  ["/admin/operators", "operators-table", "添加时间"],
];

describe("list pages carry the card markup", () => {
  for (const [path, id, label] of PAGES) {
    test(`${path}: every cell of a row is labelled or placed`, async () => {
      const html = await (await h.get(path)).text();
      expect(html).toMatch(new RegExp(`<div class="table-wrap cards">\\s*<table class="table" id="${id}">`));
      const cells = firstRowCells(html, id);
      expect(cells.length).toBeGreaterThan(2);
      const bare = cells.filter((td) => !td.includes("data-label=") && !PLACED.some((c) => new RegExp(`class="[^"]*\\b${c}\\b`).test(td)));
      expect({ path, bare }).toEqual({ path, bare: [] });
      expect(html).toContain(`data-label="${label}"`);
    });
  }

  test("the labels follow the page's language", async () => {
    const html = await (await h.get("/admin/orders", { cookie: `${h.login.cookie}; xpay_lang=en` })).text();
    expect(firstRowCells(html, "orders-table").some((td) => td.includes('data-label="Amount"'))).toBe(true);
  });

  test("the orders row: status as the badge, both amounts as key cells, the number as the title", async () => {
    const cells = firstRowCells(await (await h.get("/admin/orders")).text(), "orders-table");
    expect(cells.filter((td) => td.includes("c-key"))).toHaveLength(2);
    expect(cells.some((td) => td.includes("c-title"))).toBe(true);
    expect(cells.some((td) => td.includes("c-badge"))).toBe(true);
  });
});

describe("console.css", () => {
  const css = readFileSync("src/admin/assets/console.css", "utf8");
  const block = (query: string) => {
    const at = css.indexOf(`@media (${query}) {`);
    expect(at).toBeGreaterThan(-1);
    return css.slice(at, css.indexOf("\n}\n", at));
  };

  test("the phone menu wraps instead of scrolling sideways", () => {
    const phone = block("max-width: 800px");
    expect(phone).toMatch(/\.sidenav ul \{[^}]*flex-wrap: wrap/);
    expect(phone).not.toMatch(/\.sidenav \{[^}]*overflow-x: auto/);
  });

  test("cards only under 641 px: rows become flex cards, headings hide, labels print", () => {
    const cards = block("max-width: 640px");
    expect(cards).toMatch(/\.cards > \.table > thead \{ display: none; \}/);
    expect(cards).toMatch(/\.cards > \.table > tbody > tr \{ display: flex;/);
    expect(cards).toContain("td[data-label]::before { content: attr(data-label);");
    expect(css.slice(0, css.indexOf("@media (max-width: 640px)"))).not.toContain(".cards >");
  });
});
