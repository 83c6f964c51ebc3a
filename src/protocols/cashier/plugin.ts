// Mounts the checkout template API under /api/order. Handlers read the raw request (parse: "none")
// so JSON, form and query parameters go through the one shared reader; `?_time=` is ignored.
import { Elysia } from "elysia";
import type { Gateway } from "../../core/gateway.ts";
import { json } from "../http.ts";
import { apiError, Code } from "./codec.ts";
import { retryAfter } from "./miss-gate.ts";
import { orderAudio, orderInfo, orderStatus } from "./order-routes.ts";
import { orderPayType, orderPayTypes, orderQrcode } from "./pay-routes.ts";

const raw = { parse: "none" as const };

type Handler = (gw: Gateway, request: Request) => Promise<Response>;

/**
 * Answers describe a live order: no cache may keep them, whatever `_time` a client sends or omits.
 * A 429 (too many lookups that missed) says when to come back.
 */
function route(gw: Gateway, handler: Handler) {
  return async ({ request }: { request: Request }) => {
    const res = await handler(gw, request);
    res.headers.set("cache-control", "no-store");
    if (res.status === Code.TooMany) res.headers.set("retry-after", String(retryAfter((await gw.settings()).int("lookup_miss_limit"))));
    return res;
  };
}

export function cashierApiPlugin(gw: Gateway) {
  return new Elysia({ name: "xpay-cashier-api", prefix: "/api/order" })
    .onError(({ code, error }) => {
      if (code === "NOT_FOUND") return json(apiError(Code.NotFound, "not found"), Code.NotFound);
      gw.log.error("template API error", { message: error instanceof Error ? error.message : String(error) });
      return json(apiError(Code.Internal, "服务器内部错误，请稍后重试"), Code.Internal);
    })
    .post("/info", route(gw, orderInfo), { ...raw, detail: { summary: "Order for the cashier page (call first)" } })
    .post("/status", route(gw, orderStatus), { ...raw, detail: { summary: "Order status, polled by the cashier page" } })
    .post("/audio", route(gw, orderAudio), { ...raw, detail: { summary: "Spoken prompt settings" } })
    .post("/qrcode", route(gw, orderQrcode), { ...raw, detail: { summary: "QR code and amount to pay (order_id only)" } })
    .post("/pay-types", route(gw, orderPayTypes), { ...raw, detail: { summary: "Pay types the payer can pick" } })
    .post("/pay-type", route(gw, orderPayType), { ...raw, detail: { summary: "The payer's pick: allocates account and amount" } });
}
