// Mounts the hash protocol under /xpay/hashpay and, for clients configured with the original
// product's name, under /xpay/hupijiao. Raw requests (parse: "none"): the vendor demo posts JSON
// under a form content type, which only the shared parameter reader handles.
import { Elysia } from "elysia";
import type { Gateway } from "../../core/gateway.ts";
import { json } from "../http.ts";
import { ErrCode, hashFail } from "./codec.ts";
import { hashCreate } from "./create.ts";
import { hashQuery } from "./query.ts";
import { CreateParams, QueryParams } from "./schemas.ts";

const raw = { parse: "none" as const };

function mount(gw: Gateway, prefix: string) {
  return new Elysia({ name: `xpay-hashpay${prefix}`, prefix })
    .onError(({ error }) => {
      gw.log.error("hash protocol route error", { message: error instanceof Error ? error.message : String(error) });
      return json(hashFail(ErrCode.Internal, "internal error", null));
    })
    .post("", ({ request, server }) => hashCreate(gw, request, server), { ...raw, detail: { summary: "Hash protocol create", description: CreateParams.schema.description } })
    .post("/", ({ request, server }) => hashCreate(gw, request, server), { ...raw, detail: { summary: "Hash protocol create" } })
    .post("/payment/do.html", ({ request, server }) => hashCreate(gw, request, server), { ...raw, detail: { summary: "Hash protocol create" } })
    .post("/payment/query.html", ({ request }) => hashQuery(gw, request), { ...raw, detail: { summary: "Hash protocol order query", description: QueryParams.schema.description } });
}

export function hashpayPlugin(gw: Gateway) {
  return new Elysia({ name: "xpay-hashpay" }).use(mount(gw, "/xpay/hashpay")).use(mount(gw, "/xpay/hupijiao"));
}
