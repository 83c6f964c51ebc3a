// SSPanel-UIM's Epay gateway against xpay, unchanged: a server-side POST to apiurl . 'mapi.php'
// whose sign keeps empty fields as `k=` (no paraFilter: an empty clientip is signed as
// `clientip=`), accepted only as JSON with `code` === 1 and a `payurl`; then its notify route,
// EpayNotify over $_GET (paraFilter, md5 ===) and trade_status === 'TRADE_SUCCESS'.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, type Harness, SECRET } from "../helpers.ts";
import { apiOrder, cashier, panelGateway, payAndDeliver } from "./flow.ts";
import { sspanelMapiBody, sspanelNotify, type SspanelEpay } from "./panels.ts";
import { phpGet } from "./php.ts";
import { type PanelSite, startPanelSite } from "./site.ts";

let h: Harness;
let site: PanelSite;
const epay: SspanelEpay = { apiurl: `${BASE}/xpay/epay/`, partner: "1001", key: SECRET };

beforeEach(async () => {
  h = await panelGateway();
  site = startPanelSite((r) => (r.path === "/payment/notify/epay" ? { body: sspanelNotify(r.query, SECRET) } : { status: 404, body: "not found" }));
});
afterEach(() => {
  site.stop();
  h.close();
});

/** Guzzle's POST with form_params, decoded as the panel does: json_decode($body, true). */
async function mapi(body: string): Promise<any> {
  const res = await h.app.handle(new Request(`${epay.apiurl}mapi.php`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }));
  return JSON.parse(await res.text());
}

const invoice = (o: Partial<Parameters<typeof sspanelMapiBody>[1]> = {}) => ({
  type: "alipay", tradeno: "SSP8Q2W", price: "15.00", notify_url: `${site.origin}/payment/notify/epay`,
  return_url: `${site.origin}/user/invoice/7/view`, appName: "My Panel", remoteAddr: "", ...o,
});

describe("SSPanel-UIM Epay (mapi.php)", () => {
  test("empty clientip signed as `clientip=`: code === 1 with payurl; paid; notify verified from $_GET", async () => {
    const body = sspanelMapiBody(epay, invoice());
    expect(body).toContain("clientip=&");
    const res = await mapi(body);
    expect(res.code).toBe(1); // the panel compares with !== 1: a string "1" would fail it
    expect(typeof res.payurl).toBe("string");
    expect(res.payurl).toBe(`${BASE}/pay/${res.trade_no}`);
    expect((await cashier(h, "info", { order_id: res.trade_no })).body).toMatchObject({ pay_type: "alipay", amount: 1500, subject: "SSP8Q2W" });
    expect(await apiOrder(h, "SSP8Q2W")).toMatchObject({ code: 1, status: 1 });

    await payAndDeliver(h, res.trade_no);
    await site.waitFor(1);
    expect(site.hits[0]).toMatchObject({ method: "GET", answer: "success" });
    expect(phpGet(site.hits[0]!.query)).toMatchObject({ out_trade_no: "SSP8Q2W", trade_status: "TRADE_SUCCESS", money: "15.00" });
    expect(await apiOrder(h, "SSP8Q2W")).toMatchObject({ code: 1, status: 2 });
  });

  test("the same request again (the panel retries) gives the same order", async () => {
    const body = sspanelMapiBody(epay, invoice({ remoteAddr: "203.0.113.9" }));
    const a = await mapi(body);
    const b = await mapi(body);
    expect(a.code).toBe(1);
    expect(b.trade_no).toBe(a.trade_no);
  });

  test("no pay type chosen (type=''): a clear error in mapi.php's shape, which the panel shows as a gateway error", async () => {
    const res = await mapi(sspanelMapiBody(epay, invoice({ type: "" })));
    expect(res).toEqual({ code: -1, msg: expect.stringContaining("type") });
  });

  test("a wrong key is refused with empties kept or dropped", async () => {
    const res = await mapi(sspanelMapiBody({ ...epay, key: "0".repeat(32) }, invoice()));
    expect(res.code).toBe(-1);
    expect(res.msg).toContain("signature mismatch");
  });
});
