import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, harness, type Harness, seed } from "../helpers.ts";
import { call, v1Params } from "./sdk.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

async function errorText(res: Response): Promise<string> {
  expect(res.status).toBe(400);
  expect(res.headers.get("content-type")).toContain("text/html");
  return res.text();
}

describe("epay V1 submit.php", () => {
  test("GET link built with form encoding (+ for spaces) redirects to the cashier", async () => {
    const params = v1Params({ out_trade_no: "S1", name: "商品 A+B", sitename: "我的 站点" });
    const res = await call(h, "GET", "/xpay/epay/submit.php", params);
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toStartWith(`${BASE}/pay/`);
    const order = await h.gw.store.getOrder(location.split("/").pop()!);
    expect(order).toMatchObject({ family: "epay-v1", name: "商品 A+B", outTradeNo: "S1", amount: 1000, payType: "alipay", status: 1 });
  });

  test("POST form works the same", async () => {
    const res = await call(h, "POST", "/xpay/epay/submit.php", v1Params());
    expect(res.status).toBe(302);
  });

  test("old SDKs: ?_input_charset=utf-8 in the URL, fields in the body", async () => {
    const res = await call(h, "POST", "/xpay/epay/submit.php", v1Params({ out_trade_no: "S2" }), "?_input_charset=utf-8");
    expect(res.status).toBe(302);
  });

  test("the query wins when it has pid; _input_charset there is ignored too", async () => {
    const good = new URLSearchParams({ ...v1Params({ out_trade_no: "S3" }), _input_charset: "utf-8" }).toString();
    const res = await h.app.handle(
      new Request(`http://localhost/xpay/epay/submit.php?${good}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "pid=9&junk=1" }),
    );
    expect(res.status).toBe(302);
  });

  test("tampered field and wrong key: an HTML error page", async () => {
    const tampered = { ...v1Params(), money: "0.01" };
    expect(await errorText(await call(h, "GET", "/xpay/epay/submit.php", tampered))).toContain("signature mismatch");
    const wrongKey = v1Params({}, "f".repeat(32));
    expect(await errorText(await call(h, "POST", "/xpay/epay/submit.php", wrongKey))).toContain("signature mismatch");
  });

  test("unknown pid, bad money (submit.php without type: test/panels/choice.test.ts)", async () => {
    expect(await errorText(await call(h, "GET", "/xpay/epay/submit.php", v1Params({ pid: 4242 })))).toContain("unknown merchant");
    for (const money of ["1.001", "0", "-1", "abc"]) {
      expect(await errorText(await call(h, "GET", "/xpay/epay/submit.php", v1Params({ money })))).toContain("money");
    }
  });

  test("duplicate out_trade_no: same amount reopens the same cashier, another amount is refused", async () => {
    const a = await call(h, "GET", "/xpay/epay/submit.php", v1Params({ out_trade_no: "DUP", money: "5.00" }));
    const b = await call(h, "POST", "/xpay/epay/submit.php", v1Params({ out_trade_no: "DUP", money: "5.00" }));
    expect(b.headers.get("location")).toBe(a.headers.get("location")!);
    const c = await call(h, "GET", "/xpay/epay/submit.php", v1Params({ out_trade_no: "DUP", money: "6.00" }));
    expect(await errorText(c)).toContain("different amount");
  });
});
