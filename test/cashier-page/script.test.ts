// Runs cashier.js against a scripted template API (see fake-browser.ts) and checks what the payer sees.
import { describe, expect, test } from "bun:test";
import { NETWORK_DOWN, openPage, Reply, START_SECONDS } from "./fake-browser.ts";

const TRADE_NO = "20240101120000123456";

function info(over: Record<string, unknown> = {}) {
  return {
    subject: "会员月卡",
    out_order_id: "M-1001",
    order_id: TRADE_NO,
    status: 1,
    amount: 1000,
    trade_amount: 999,
    expire_time: START_SECONDS + 900,
    pay_type: "alipay",
    pay_type_text: "支付宝",
    create_time: "2024-01-01 12:00:00",
    pay_type_logo: "",
    content: "",
    service_qq: "123456",
    pay_tip: "付款时请勿修改金额",
    pay_payed_wait_time: 3,
    pay_account_tip: { tip: "请核对收款人", tip_cover: 0 },
    ...over,
  };
}

const qrcode = (over: Record<string, unknown> = {}) => ({
  type: "qrcode",
  qrcode_data: "HTTPS://QR.ALIPAY.COM/FKX0",
  qrcode: "/qrcode/img?data=FKX0",
  scheme: "alipays://platformapi/startapp?saId=10000007&qrcode=FKX0",
  uri: "",
  content: "",
  actual_amount: "9.99",
  actual_account: "",
  actual_account_type: "",
  ...over,
});

const pending = { status: 1, expire_time: START_SECONDS + 900, is_auto_open: 0, pay_payed_wait_time: 3 };
const audioOff = () => ({ audio_enable: 0, audio_url: "", audio_content: "" });

describe("cashier.js: pending order", () => {
  test("shows the exact amount, the difference, the QR and the countdown, then polls until paid", async () => {
    let status: Record<string, unknown> = pending;
    const page = openPage({
      routes: {
        info: () => info(),
        qrcode: () => qrcode(),
        audio: () => ({ audio_enable: 1, audio_url: "/audio/9.99.mp3", audio_content: "请支付9.99元" }),
        status: () => status,
      },
    });
    await page.clock.advance(0);

    expect(page.names().slice(0, 3)).toEqual(["info", "audio", "qrcode"]);
    for (const call of page.calls) {
      expect(call.url).toMatch(/^\/api\/order\/[a-z-]+\?_time=\d{13}$/);
      expect(call.body).toEqual({ order_id: TRADE_NO });
    }
    expect(page.text("subject")).toBe("会员月卡");
    expect(page.text("amount")).toBe("¥9.99");
    expect(page.text("amount-diff")).toBe("请务必支付 ¥9.99（与订单金额不同，请按此金额付款）");
    expect(page.el("qr")!.src).toBe("/qrcode/img?data=FKX0");
    expect(page.visible("qr")).toBe(true);
    expect(page.text("countdown")).toBe("15:00");
    expect(page.text("state")).toBe("等待支付");
    expect(page.text("pay-type-text")).toBe("支付宝");
    expect(page.text("pay-logo")).toBe("支");
    expect(page.text("account-tip")).toBe("请核对收款人");
    expect(page.text("pay-tip")).toBe("付款时请勿修改金额");
    expect(page.text("service-qq")).toContain("123456");
    expect(page.visible("open-app")).toBe(false); // desktop
    expect(page.visible("audio-play")).toBe(true);
    expect(page.navigations).toEqual([]); // no auto-open, no autoplay redirect

    const polls = () => page.names().filter((n) => n === "status").length;
    const before = polls();
    await page.clock.advance(6000);
    expect(polls() - before).toBe(3);
    expect(page.text("countdown")).toBe("14:54");

    status = { status: 2, return_uri: "/shop/return?trade_no=1", pay_payed_wait_time: 3 };
    await page.clock.advance(2000);
    expect(page.text("state")).toBe("支付成功");
    expect(page.visible("qr")).toBe(false);
    expect(page.el("amount-diff")).toBeNull();
    expect(page.text("redirect-tip")).toBe("3 秒后自动返回商户页面");
    const after = polls();
    await page.clock.advance(2900);
    expect(page.navigations).toEqual([]);
    await page.clock.advance(200);
    expect(page.navigations).toEqual(["/shop/return?trade_no=1"]);
    await page.clock.advance(20000);
    expect(polls()).toBe(after); // polling stopped once paid
  });

  test("no #amount-diff when the amount to pay equals the order amount", async () => {
    const page = openPage({
      routes: {
        info: () => info({ trade_amount: 1000 }),
        qrcode: () => qrcode({ actual_amount: "10.00" }),
        audio: audioOff,
        status: () => pending,
      },
    });
    await page.clock.advance(0);
    expect(page.text("amount")).toBe("¥10.00");
    expect(page.el("amount-diff")).toBeNull();
  });

  test("polls every 2 s while visible and every 10 s while hidden; network errors are quiet", async () => {
    let down = false;
    const page = openPage({
      routes: { info: () => info(), qrcode: () => qrcode(), audio: audioOff, status: () => (down ? NETWORK_DOWN : pending) },
    });
    await page.clock.advance(0);
    const polls = () => page.names().filter((n) => n === "status").length;

    page.doc.hidden = true;
    page.doc.dispatch("visibilitychange");
    await page.clock.advance(2000); // the poll already scheduled still runs
    const hiddenStart = polls();
    await page.clock.advance(30000);
    expect(polls() - hiddenStart).toBe(3);

    page.doc.hidden = false;
    page.doc.dispatch("visibilitychange");
    await page.clock.advance(0);
    expect(polls() - hiddenStart).toBe(4); // back in view: asks at once

    down = true;
    await page.clock.advance(20000);
    expect(page.text("state")).toBe("等待支付");
    expect(page.visible("qr")).toBe(true);
    const during = polls();
    down = false;
    await page.clock.advance(10000);
    expect(polls()).toBeGreaterThan(during);
  });

  test("countdown reaching 0 shows timed out, hides the QR and stops polling", async () => {
    const page = openPage({
      routes: {
        info: () => info({ expire_time: START_SECONDS + 5 }),
        qrcode: () => qrcode(),
        audio: audioOff,
        status: () => ({ ...pending, expire_time: START_SECONDS + 5 }),
      },
    });
    await page.clock.advance(0);
    expect(page.text("countdown")).toBe("00:05");
    await page.clock.advance(5000);
    expect(page.text("state")).toBe("订单已超时");
    expect(page.visible("qr")).toBe(false);
    expect(page.visible("pay-box")).toBe(false);
    const polls = page.calls.length;
    await page.clock.advance(30000);
    expect(page.calls.length).toBe(polls);
  });

  test("status 3 from polling shows closed", async () => {
    let status: Record<string, unknown> = pending;
    const page = openPage({ routes: { info: () => info(), qrcode: () => qrcode(), audio: audioOff, status: () => status } });
    await page.clock.advance(0);
    status = { status: 3, expire_time: START_SECONDS + 900 };
    await page.clock.advance(2000);
    expect(page.text("state")).toBe("订单已关闭");
    expect(page.visible("qr")).toBe(false);
  });

  test("on a phone: open-app button, and is_auto_open navigates to the scheme once", async () => {
    const page = openPage({
      mobile: true,
      routes: { info: () => info(), qrcode: () => qrcode(), audio: audioOff, status: () => ({ ...pending, is_auto_open: 1 }) },
    });
    await page.clock.advance(0);
    const scheme = qrcode().scheme;
    expect(page.visible("open-app")).toBe(true);
    expect(page.text("open-app")).toBe("打开支付宝支付");
    expect(page.el("open-app")!.href).toBe(scheme);
    await page.clock.advance(10000);
    expect(page.navigations).toEqual([scheme]);
  });

  test("a script URL from the server never reaches href or location", async () => {
    const page = openPage({
      mobile: true,
      routes: {
        info: () => info(),
        qrcode: () => qrcode({ scheme: " javascript:alert(1)", uri: "" }),
        audio: audioOff,
        status: () => ({ status: 2, return_uri: "java\tscript:alert(1)", pay_payed_wait_time: 0, is_auto_open: 1 }),
      },
    });
    await page.clock.advance(5000);
    expect(page.visible("open-app")).toBe(false);
    expect(page.text("state")).toBe("支付成功");
    expect(page.navigations).toEqual([]);
  });
});

describe("cashier.js: choosing a pay type", () => {
  test("lists pay-types, posts the pick to pay-type, re-reads info and continues", async () => {
    let chosen = "";
    const page = openPage({
      basePath: "/gw",
      routes: {
        info: () => (chosen ? info({ pay_type: chosen, pay_type_text: "微信支付" }) : info({ pay_type: "", pay_type_text: "", trade_amount: 0 })),
        "pay-types": () => ({ code: 200, message: "ok", data: [{ pay_type: "alipay", pay_type_text: "支付宝" }, { pay_type: "wxpay", pay_type_text: "微信支付" }] }),
        "pay-type": (body) => {
          chosen = String(body.pay_type);
          return { code: 200, message: "ok", data: info({ pay_type: chosen }) };
        },
        qrcode: () => qrcode(),
        audio: audioOff,
        status: () => pending,
      },
    });
    await page.clock.advance(0);
    expect(page.names()).toEqual(["info", "pay-types"]);
    expect(page.calls.every((c) => c.url.startsWith("/gw/api/order/"))).toBe(true);
    expect(page.text("state")).toBe("请选择支付方式");
    expect(page.text("amount")).toBe("¥10.00");
    expect(page.el("amount-diff")).toBeNull();
    const buttons = page.el("pay-types")!.querySelectorAll("button");
    expect(buttons.map((b) => b.getAttribute("data-pay-type"))).toEqual(["alipay", "wxpay"]);
    expect(buttons[1]!.textContent).toContain("微信支付");

    buttons[1]!.click();
    await page.clock.advance(0);
    expect(page.calls.find((c) => c.name === "pay-type")!.body).toEqual({ order_id: TRADE_NO, pay_type: "wxpay" });
    expect(page.names().slice(2, 4)).toEqual(["pay-type", "info"]);
    expect(page.visible("pay-types")).toBe(false);
    expect(page.text("pay-type-text")).toBe("微信支付");
    expect(page.text("pay-logo")).toBe("微");
    expect(page.el("qr")!.src).toBe("/qrcode/img?data=FKX0");
    expect(page.text("amount-diff")).toContain("¥9.99");
  });

  test("a refused pick shows the message and lets the payer try again", async () => {
    const page = openPage({
      routes: {
        info: () => info({ pay_type: "", trade_amount: 0 }),
        "pay-types": () => ({ code: 200, message: "ok", data: [{ pay_type: "qqpay", pay_type_text: "QQ钱包" }] }),
        "pay-type": () => new Reply(400, { code: 400, message: "暂无可用的收款账户", data: null }),
      },
    });
    await page.clock.advance(0);
    const [button] = page.el("pay-types")!.querySelectorAll("button");
    button!.click();
    await page.clock.advance(0);
    expect(page.text("state")).toBe("暂无可用的收款账户");
    expect(button!.disabled).toBe(false);
    expect(page.visible("pay-types")).toBe(true);
  });
});

describe("cashier.js: finished or unknown orders", () => {
  const finalCases: [number, string][] = [
    [3, "订单已关闭"],
    [4, "订单已超时"],
    [5, "订单创建失败"],
  ];
  for (const [status, text] of finalCases) {
    test(`status ${status} from info shows ${text} and calls nothing else`, async () => {
      const page = openPage({ routes: { info: () => info({ status }) } });
      await page.clock.advance(10000);
      expect(page.text("state")).toBe(text);
      expect(page.names()).toEqual(["info"]);
      expect(page.visible("qr")).toBe(false);
    });
  }

  test("paid order from info shows 已支付 and returns to the merchant after the wait", async () => {
    const page = openPage({
      routes: { info: () => info({ status: 2, return_uri: "/return?ok=1", pay_payed_wait_time: 2 }) },
    });
    await page.clock.advance(0);
    expect(page.text("state")).toContain("已支付");
    expect(page.names()).toEqual(["info"]);
    await page.clock.advance(2100);
    expect(page.navigations).toEqual(["/return?ok=1"]);
  });

  test("an unknown order shows the server's message", async () => {
    const page = openPage({ routes: { info: () => new Reply(404, { code: 404, message: "订单不存在", data: null }) } });
    await page.clock.advance(10000);
    expect(page.text("state")).toBe("订单不存在");
    expect(page.names()).toEqual(["info"]);
  });

  test("info keeps retrying while the network is down", async () => {
    let down = true;
    const page = openPage({
      routes: { info: () => (down ? NETWORK_DOWN : info({ status: 3 })) },
    });
    await page.clock.advance(0);
    expect(page.text("state")).toBe("网络异常，正在重试…");
    down = false;
    await page.clock.advance(3000);
    expect(page.text("state")).toBe("订单已关闭");
  });
});
