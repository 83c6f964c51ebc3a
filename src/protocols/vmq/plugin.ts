// Mounts V免签's routes at the root of the host, GET and POST each, as its server (ThinkPHP
// Route::any) did: the app calls http://HOST/appHeart and a shop driver BASE/createOrder. The
// handlers read the raw request (parse: "none") through the one parameter reader.
import { Elysia } from "elysia";
import type { Gateway } from "../../core/gateway.ts";
import { reply } from "./auth.ts";
import { vmqCheckOrder } from "./check-order.ts";
import { vmqCloseOrder } from "./close-order.ts";
import { fail, Msg } from "./codec.ts";
import { vmqCreateOrder } from "./create.ts";
import { vmqGetOrder } from "./get-order.ts";
import { appHeart } from "./heart.ts";
import { VmqOrderLookup } from "./lookup.ts";
import { appPush } from "./push.ts";
import { getState } from "./state.ts";

const raw = { parse: "none" as const, detail: { tags: ["vmq"] } };

export function vmqPlugin(gw: Gateway) {
  const lookup = new VmqOrderLookup(gw);
  const routes: [string, (request: Request) => Promise<Response>][] = [
    ["/appHeart", (r) => appHeart(gw, r)],
    ["/appPush", (r) => appPush(gw, r)],
    ["/getState", (r) => getState(gw, r)],
    ["/createOrder", (r) => vmqCreateOrder(gw, r)],
    ["/getOrder", (r) => vmqGetOrder(gw, lookup, r)],
    ["/checkOrder", (r) => vmqCheckOrder(gw, lookup, r)],
    ["/closeOrder", (r) => vmqCloseOrder(gw, r)],
  ];
  let app = new Elysia({ name: "xpay-vmq" }).onError(({ code, error }) => {
    if (code === "NOT_FOUND") return reply(fail(Msg.NotFound));
    gw.log.error("vmq.route", { error: error instanceof Error ? error.message : String(error) });
    return reply(fail(Msg.Internal));
  });
  for (const [path, handle] of routes) {
    app = app.get(path, ({ request }) => handle(request), raw).post(path, ({ request }) => handle(request), raw);
  }
  return app;
}
