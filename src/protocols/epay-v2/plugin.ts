// Mounts epay V2 under /xpay/epayn/api/pay/. Raw requests (parse: "none") so the signature covers
// the parameters exactly as sent; failures are platform-signed like every V2 answer.
import { Elysia } from "elysia";
import type { Gateway } from "../../core/gateway.ts";
import { json, text } from "../http.ts";
import { v2Create } from "./create.ts";
import { v2Fail } from "./codec.ts";
import { v2Query } from "./query.ts";
import { CreateParams, QueryParams, SubmitParams } from "./schemas.ts";
import { v2Submit } from "./submit.ts";

const raw = { parse: "none" as const };

/** Registered so SDK calls get a clear answer instead of a 404. */
export const NOT_IMPLEMENTED = ["refund", "refundquery", "transfer", "transfer/query", "balance"] as const;

export function epayV2Plugin(gw: Gateway) {
  let app = new Elysia({ name: "xpay-epay-v2", prefix: "/xpay/epayn/api/pay" })
    .onError(({ error }) => {
      gw.log.error("epay V2 route error", { message: error instanceof Error ? error.message : String(error) });
      // Unsigned on purpose: the failure may be the signing itself (e.g. an unreadable key).
      return json(v2Fail("internal error"));
    })
    .get("/submit", ({ request, server }) => v2Submit(gw, request, server), { ...raw, detail: { summary: "epay V2 submit (GET link)", description: SubmitParams.schema.description } })
    .post("/submit", ({ request, server }) => v2Submit(gw, request, server), { ...raw, detail: { summary: "epay V2 submit (form post)" } })
    .post("/create", ({ request, server }) => v2Create(gw, request, server), { ...raw, detail: { summary: "epay V2 API create", description: CreateParams.schema.description } })
    .get("/query", ({ request }) => v2Query(gw, request), { ...raw, detail: { summary: "epay V2 order query", description: QueryParams.schema.description } })
    .post("/query", ({ request }) => v2Query(gw, request), { ...raw, detail: { summary: "epay V2 order query" } });
  for (const name of NOT_IMPLEMENTED) {
    app = app.all(`/${name}`, () => text("Not implemented", 501), { ...raw, detail: { summary: `epay V2 ${name}: not implemented` } });
  }
  return app;
}
