// The /dev/* routes of `xpay dev`: what the cashier's test panel and a merchant's CI call to pay,
// fail or expire an order, and GET /dev, the test setup as JSON. Mounted only by devExtras(),
// which only the `dev` command uses: `xpay serve` has none of these routes.
import { Elysia } from "elysia";
import { devExpire, devFail, devPay, type DevResult } from "../../core/dev/actions.ts";
import type { Gateway } from "../../core/gateway.ts";
import { json } from "../../protocols/http.ts";
import { parseBody, readBody } from "../../protocols/params.ts";
import { markTestMode } from "./mark.ts";
import type { ServeExtras } from "../serve.ts";
import { DEV_RETRY_DELAYS_S } from "../../core/dev/mode.ts";
import type { DevInfo } from "./info.ts";

const TRADE_NO = /^[0-9A-Za-z_-]{1,64}$/;

/** `pay_type` from the query or the body (form or JSON); empty when not given. */
async function payTypeOf(request: Request): Promise<string | { error: string }> {
  const query = new URL(request.url).searchParams.get("pay_type");
  if (query !== null) return query;
  const body = await readBody(request);
  if (!body.ok) return { error: body.reason };
  if (body.text.trim() === "") return "";
  const params = parseBody(body.text);
  return params.ok ? (params.params.pay_type ?? "") : { error: params.reason };
}

/** {code, message, data} with the HTTP status equal to code, like the template API. */
function answer(r: DevResult): Response {
  if (!r.ok) return json({ code: r.status, message: r.reason, data: r.order ? { trade_no: r.order.tradeNo, status: r.order.status } : null }, r.status);
  const data = { trade_no: r.order.tradeNo, status: r.order.status, outcome: r.outcome, reason: r.reason, report_id: r.reportId, notification_queued: r.notificationQueued };
  return json({ code: 200, message: "success", data });
}

type Action = (gw: Gateway, tradeNo: string, o: { payType?: string }) => Promise<DevResult>;

function route(gw: Gateway, action: Action) {
  return async ({ params, request }: { params: { trade_no: string }; request: Request }) => {
    if (!TRADE_NO.test(params.trade_no)) return json({ code: 404, message: "no such order", data: null }, 404);
    const payType = await payTypeOf(request);
    if (typeof payType !== "string") return json({ code: 400, message: payType.error, data: null }, 400);
    const res = answer(await action(gw, params.trade_no, { payType: payType || undefined }));
    res.headers.set("cache-control", "no-store");
    return res;
  };
}

export function devPlugin(gw: Gateway, info: () => DevInfo) {
  return new Elysia({ name: "xpay-dev", prefix: "/dev" })
    .get("/", () => json(info()))
    .post("/orders/:trade_no/pay", route(gw, devPay), { parse: "none" })
    .post("/orders/:trade_no/fail", route(gw, devFail), { parse: "none" })
    .post("/orders/:trade_no/expire", route(gw, (g, t) => devExpire(g, t)), { parse: "none" });
}

/** Everything `xpay dev` adds to the server `xpay serve` runs. */
export function devExtras(gw: Gateway, info: () => DevInfo): ServeExtras {
  return { plugins: [devPlugin(gw, info)], decorate: markTestMode, worker: { retryDelaysS: DEV_RETRY_DELAYS_S } };
}
