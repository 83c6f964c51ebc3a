// Mounts the native protocol under /xpay/. Handlers read the raw request (parse: "none") so the
// same parameter reader and signature rule serve JSON and form bodies alike.
import { Elysia } from "elysia";
import type { Gateway } from "../../core/gateway.ts";
import { json } from "../http.ts";
import { orderCancel } from "./cancel.ts";
import { userChannels } from "./channels.ts";
import { Code, fail } from "./codec.ts";
import { createJson, createPage } from "./create.ts";
import { orderStatus } from "./status.ts";
import { CancelParams, ChannelsParams, CreateParams, StatusParams } from "./schemas.ts";

const raw = { parse: "none" as const };

export function nativePlugin(gw: Gateway) {
  return new Elysia({ name: "xpay-native", prefix: "/xpay" })
    .onError(({ error }) => {
      gw.log.error("native route error", { message: error instanceof Error ? error.message : String(error) });
      return json(fail(Code.Internal, "internal error"));
    })
    .post("/order/create", ({ request, server }) => createJson(gw, request, server), { ...raw, detail: { summary: "Create an order", description: CreateParams.schema.description } })
    .post("/order/create-page", ({ request, server }) => createPage(gw, request, server), { ...raw, detail: { summary: "Create an order and redirect to the cashier" } })
    .post("/order/status", ({ request }) => orderStatus(gw, request), { ...raw, detail: { summary: "Order status", description: StatusParams.schema.description } })
    .post("/order/cancel", ({ request }) => orderCancel(gw, request), { ...raw, detail: { summary: "Close a pending order", description: CancelParams.schema.description } })
    .post("/user-channels", ({ request }) => userChannels(gw, request), { ...raw, detail: { summary: "Usable channel accounts", description: ChannelsParams.schema.description } });
}
