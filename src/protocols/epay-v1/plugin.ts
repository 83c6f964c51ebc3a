// Mounts epay V1 under /xpay/epay/. Handlers read the raw request (parse: "none"): submit.php has
// its own rule for where the fields are, and every route signs over the parameters as sent.
import { Elysia } from "elysia";
import type { Gateway } from "../../core/gateway.ts";
import { json } from "../http.ts";
import { apiPhp } from "./api.ts";
import { v1Fail } from "./codec.ts";
import { mapiPhp } from "./mapi.ts";
import { ApiParams, MapiParams, SubmitParams } from "./schemas.ts";
import { submitPhp } from "./submit.ts";

const raw = { parse: "none" as const };

export function epayV1Plugin(gw: Gateway) {
  return new Elysia({ name: "xpay-epay-v1", prefix: "/xpay/epay" })
    .onError(({ error }) => {
      gw.log.error("epay V1 route error", { message: error instanceof Error ? error.message : String(error) });
      return json(v1Fail("internal error"));
    })
    .get("/submit.php", ({ request, server }) => submitPhp(gw, request, server), { ...raw, detail: { summary: "epay V1 submit (GET link)", description: SubmitParams.schema.description } })
    .post("/submit.php", ({ request, server }) => submitPhp(gw, request, server), { ...raw, detail: { summary: "epay V1 submit (form post)" } })
    .post("/mapi.php", ({ request, server }) => mapiPhp(gw, request, server), { ...raw, detail: { summary: "epay V1 API create", description: MapiParams.schema.description } })
    .get("/api.php", ({ request }) => apiPhp(gw, request), { ...raw, detail: { summary: "epay V1 merchant queries", description: ApiParams.schema.description } })
    .post("/api.php", ({ request }) => apiPhp(gw, request), { ...raw, detail: { summary: "epay V1 merchant queries" } });
}
