// Issue 17, the orders list: every filter narrows through the page, the search box finds an order
// by either number or its payable amount, keyset "next page" / "newest" links cover every order
// once, and a bad filter value is a 422 with its message under its field and no rows.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness } from "./support.ts";

let h: AdminHarness;
const made: { trade_no: string; out_trade_no: string }[] = [];
let wxNo = "";
let paidNo = "";
let wxAccount = 0;
let cookie = "";

beforeAll(async () => {
  h = await adminHarness();
  await seed(h);
  await h.gw.store.addMerchant({ pid: 1002, name: "Other <b>shop</b>", secret: "b".repeat(32), now: h.clock.now() });
  wxAccount = (await h.gw.store.addChannel({ pid: 0, payType: "wxpay", code: "wx", name: "WeChat", qrcode: "wxp://x", now: h.clock.now() })).id;
  // 55 orders over several seconds (several per second), one of them named like an attack.
  for (let i = 0; i < 55; i++) {
    made.push(await createOrder(h, { money: `${10 + i}.00`, name: i === 3 ? "<script>alert(1)</script>" : `Item ${i}` }));
    if (i % 4 === 3) h.clock.advance(1);
  }
  paidNo = made[7]!.trade_no;
  expect((await amountReport(h, 1700)).body.data.outcome).toBe("matched");
  h.clock.advance(86400 * 2); // two days later: the rest have timed out
  wxNo = (await createOrder(h, { money: "10.00", pay_type: "wxpay", out_trade_no: "WX-0001" })).trade_no;
  cookie = (await h.session()).cookie; // the first one has expired meanwhile
});
afterAll(() => h.close());

/** The trade numbers of the rows a page lists, and its links. */
async function list(query = "") {
  const res = await h.get(`/admin/orders${query}`, { cookie });
  const html = await res.text();
  const rows = [...html.matchAll(/<tr data-trade-no="(\d+)"/g)].map((m) => m[1]!);
  const next = html.match(/<a href="([^"]+)" rel="next"/)?.[1]?.replaceAll("&amp;", "&");
  const newest = html.match(/<a href="([^"]+)" rel="prev"/)?.[1]?.replaceAll("&amp;", "&");
  return { status: res.status, html, rows, next, newest };
}

describe("paging", () => {
  test("50 per page, newest first; next page by keyset, then 'newest' back; every order once", async () => {
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]).toBe(wxNo);
    expect(first.newest).toBeUndefined();
    expect(first.next).toMatch(/^\/admin\/orders\?after=\d+\.\d{20}$/);
    const second = await list(first.next!.slice("/admin/orders".length));
    expect(second.rows).toHaveLength(6);
    expect(second.next).toBeUndefined();
    expect(second.newest).toBe("/admin/orders");
    const all = [...first.rows, ...second.rows];
    expect(new Set(all).size).toBe(56);
    expect([...all].sort()).toEqual([...made.map((o) => o.trade_no), wxNo].sort());
    expect(first.html).not.toContain("OFFSET");
  });

  test("the page links keep the filter", async () => {
    const first = await list("?status=expired&pid=1001");
    expect(first.rows).toHaveLength(50);
    expect(first.next).toMatch(/^\/admin\/orders\?status=expired&pid=1001&after=/);
    const second = await list(first.next!.slice("/admin/orders".length));
    expect(second.rows).toHaveLength(4); // 55 minus the paid one
    expect(second.newest).toBe("/admin/orders?status=expired&pid=1001");
  });
});

describe("filters", () => {
  test("status, merchant, pay type, account each narrow", async () => {
    expect((await list("?status=paid")).rows).toEqual([paidNo]);
    expect((await list("?status=2")).rows).toEqual([paidNo]);
    expect((await list("?status=pending")).rows).toEqual([wxNo]);
    expect((await list("?pay_type=wxpay")).rows).toEqual([wxNo]);
    expect((await list(`?account=${wxAccount}`)).rows).toEqual([wxNo]);
    expect((await list("?pid=1002")).rows).toEqual([]);
    expect((await list("?pid=1002")).html).toContain("没有符合条件的订单，试试放宽筛选条件或清除筛选。");
  });

  test("dates are the operator's local days; 'to' includes its day", async () => {
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date(h.clock.now() * 1000));
    expect((await list(`?from=${today}`)).rows).toEqual([wxNo]);
    expect((await list(`?to=${today}`)).rows).toHaveLength(50);
    const before = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date((h.clock.now() - 86400 * 2) * 1000));
    const r = await list(`?from=${before}&to=${before}&status=expired`);
    expect(r.rows.length).toBeGreaterThan(0);
    expect(r.rows).not.toContain(wxNo);
  });

  test("one search box: the platform number, the merchant number, or the payable amount", async () => {
    expect((await list(`?q=${wxNo}`)).rows).toEqual([wxNo]);
    expect((await list("?q=WX-0001")).rows).toEqual([wxNo]);
    expect((await list(`?q=${encodeURIComponent(made[5]!.out_trade_no)}`)).rows).toEqual([made[5]!.trade_no]);
    expect((await list("?q=17.00")).rows).toEqual([paidNo]);
    expect((await list(`?q=${encodeURIComponent("¥17")}`)).rows).toEqual([paidNo]);
    // 10.00 is payable on two orders (two accounts); the pay type narrows the search.
    expect((await list("?q=10&pay_type=alipay")).rows).toEqual([made[0]!.trade_no]);
    expect((await list("?q=nothing-like-this")).rows).toEqual([]);
  });

  test("the form shows what was asked: values kept, options selected", async () => {
    const { html } = await list("?status=paid&pid=1001&q=17.00");
    expect(html).toContain('<option value="paid" selected>已支付</option>');
    expect(html).toContain('<option value="1001" selected>1001 Shop</option>');
    expect(html).toContain('name="q" type="search" value="17.00"');
  });
});

describe("bad filters: 422, the message under the field, no rows", () => {
  const cases: [string, string, string][] = [
    ["status=done", "status", "请选择列表中的状态。"],
    ["pid=abc", "pid", "商户号应为数字。"],
    ["pid=4242", "pid", "没有这个商户。"],
    ["pay_type=Ali%20Pay", "pay_type", "支付方式应为 alipay、wxpay、qqpay 之类的名称。"],
    ["account=x", "account", "收款账户编号应为数字。"],
    ["account=999", "account", "没有这个收款账户。"],
    ["from=2026-02-30", "from", "请选择一个日期（或日期和时间）。"],
    ["from=2026-11-23&to=2026-11-01", "to", "结束日期不能早于开始日期。"],
    ["q=%E8%AE%A2%E5%8D%95", "q", "请输入平台订单号、金额（如 9.98）或商户订单号（不超过 64 个字符，不含空格和中文）。"],
  ];
  for (const [query, field, message] of cases) {
    test(query, async () => {
      const r = await list(`?${query}`);
      expect(r.status).toBe(422);
      expect(r.html).toContain(`<p class="field-error" id="f-${field}-error">${message}</p>`);
      expect(r.html).toMatch(new RegExp(`id="f-${field}"[^>]*aria-invalid="true"`));
      expect(r.html).toContain('id="filter-error"');
      expect(r.rows).toEqual([]);
    });
  }

  test("a forged page position is refused, not ignored", async () => {
    const r = await list("?after=1%20OR%201=1");
    expect(r.status).toBe(422);
    expect(r.html).toContain("分页位置无效，已无法继续翻页，请从最新一页开始。");
    expect(r.rows).toEqual([]);
  });

  test("a hostile value comes back escaped in its field, never as markup", async () => {
    const r = await list(`?q=${encodeURIComponent('"><script>x</script>')}&pay_type=${encodeURIComponent("<b>")}`);
    expect(r.status).toBe(422);
    expect(r.html).not.toContain("<script>x");
    expect(r.html).not.toContain("<b>");
    expect(r.html).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });
});

test("an order and a merchant named like markup are shown as text", async () => {
  const { html, rows } = await list(`?q=${made[3]!.out_trade_no}`);
  expect(rows).toEqual([made[3]!.trade_no]);
  expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  expect(html).not.toContain("<script>alert(1)");
  expect(html).toContain("1002 Other &lt;b&gt;shop&lt;/b&gt;");
});

test("no orders at all: the empty state says what brings them", async () => {
  const empty = await adminHarness();
  try {
    const html = await (await empty.get("/admin/orders")).text();
    expect(html).toContain("还没有订单。商户调用下单接口后，订单会显示在这里。");
    expect(html).toContain('<a href="/admin/orders" aria-current="page">订单</a>');
  } finally {
    empty.close();
  }
});
