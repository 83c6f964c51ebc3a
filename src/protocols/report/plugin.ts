// Mounts the report API under /api/report. Handlers read the raw request (parse: "none") so GET
// queries and JSON bodies go through one parameter reader and one signature rule. Static
// third-account and smsforwarder routes win over the {pid} parameter routes in Elysia's router.
import { Elysia } from "elysia";
import type { Gateway } from "../../core/gateway.ts";
import { amountReport } from "./amount.ts";
import { reply } from "./auth.ts";
import { fail, ReportCode } from "./codec.ts";
import { clientHeart, thirdAccountHeart } from "./heart.ts";
import { messageReport } from "./message.ts";
import { AmountParams, HeartParams, MessageParams, SmsForwarderParams, ThirdAccountParams, ThirdHeartParams } from "./schemas.ts";
import { smsforwarderReport } from "./smsforwarder.ts";
import { thirdAccountReport } from "./third-account.ts";

const raw = { parse: "none" as const };
const doc = (summary: string, description: string) => ({ ...raw, detail: { summary, description, tags: ["report"] } });

export function reportPlugin(gw: Gateway) {
  return new Elysia({ name: "xpay-report", prefix: "/api/report" })
    .onError(({ code, error }) => {
      if (code === "NOT_FOUND") return reply(fail(ReportCode.NotFound, "not found"));
      gw.log.error("report.route", { error: error instanceof Error ? error.message : String(error) });
      return reply(fail(ReportCode.Internal, "internal error"));
    })
    .get("/third-account", ({ request }) => thirdAccountReport(gw, request), doc("Third-party account order report", ThirdAccountParams.schema.description ?? ""))
    .post("/third-account", ({ request }) => thirdAccountReport(gw, request), doc("Third-party account order report", ThirdAccountParams.schema.description ?? ""))
    .get("/third-account/heart", ({ request }) => thirdAccountHeart(gw, request), doc("Third-party account heartbeat", ThirdHeartParams.schema.description ?? ""))
    .post("/third-account/heart", ({ request }) => thirdAccountHeart(gw, request), doc("Third-party account heartbeat", ThirdHeartParams.schema.description ?? ""))
    .post("/smsforwarder/:id", ({ request, params }) => smsforwarderReport(gw, request, params.id), doc("SmsForwarder webhook", SmsForwarderParams.schema.description ?? ""))
    .post("/:pid", ({ request, params }) => messageReport(gw, request, params.pid), doc("Notification message report", MessageParams.schema.description ?? ""))
    .get("/:pid/pc", ({ request, params }) => amountReport(gw, request, params.pid), doc("Payment amount report", AmountParams.schema.description ?? ""))
    .post("/:pid/pc", ({ request, params }) => amountReport(gw, request, params.pid), doc("Payment amount report", AmountParams.schema.description ?? ""))
    .get("/:pid/heart", ({ request, params }) => clientHeart(gw, request, params.pid), doc("Client heartbeat", HeartParams.schema.description ?? ""))
    .post("/:pid/heart", ({ request, params }) => clientHeart(gw, request, params.pid), doc("Client heartbeat", HeartParams.schema.description ?? ""));
}
