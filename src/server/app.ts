// The HTTP application: every protocol plugin plus the cashier page, mounted on one Elysia app.
import { type AnyElysia, Elysia } from "elysia";
import type { Gateway } from "../core/gateway.ts";
import { json } from "../protocols/http.ts";
import { nativePlugin } from "../protocols/native/plugin.ts";
import { epayV1Plugin } from "../protocols/epay-v1/plugin.ts";
import { epayV2Plugin } from "../protocols/epay-v2/plugin.ts";
import { hashpayPlugin } from "../protocols/hashpay/plugin.ts";
import { reportPlugin } from "../protocols/report/plugin.ts";
import { vmqPlugin } from "../protocols/vmq/plugin.ts";
import { faviconPlugin } from "./favicon.ts";
import { healthPlugin } from "./health.ts";
import { metricsPlugin } from "./metrics/route.ts";
import { cashierApiPlugin } from "../protocols/cashier/plugin.ts";
import { payPagePlugin } from "./pay-page.ts";
import { qrcodePlugin } from "./qrcode.ts";
import { payTypeIconsPlugin } from "./pay-type-icons.ts";
import { openapiPlugin } from "./openapi.ts";
import { publicRateLimit } from "./rate-limit.ts";
import { adminPlugin } from "../admin/plugin.ts";

export interface AppOptions {
  /** The operator console under /admin (default true); false when it is off or on its own listener. */
  admin?: boolean;
}

/**
 * `plugins` are mounted after the gateway's own routes: the same app with more routes, never
 * different ones (`xpay dev` adds /dev/*; `xpay serve` adds none).
 */
export function buildApp(gw: Gateway, plugins: readonly AnyElysia[] = [], o: AppOptions = {}) {
  const app = new Elysia()
    .onError(({ code, error, request }) => {
      // Under /api/ (report and template API) every answer is {code, message, data}, a stray path too.
      const field = new URL(request.url).pathname.startsWith("/api/") ? "message" : "msg";
      if (code === "NOT_FOUND") return json({ code: 404, [field]: "not found", data: null }, 404);
      gw.log.error("unhandled", { message: error instanceof Error ? error.message : String(error) });
      return json({ code: 500, [field]: "internal error", data: null }, 500);
    })
    .use(healthPlugin(gw))
    .use(faviconPlugin())
    .use(metricsPlugin(gw))
    .use(openapiPlugin())
    .use(nativePlugin(gw))
    .use(epayV1Plugin(gw))
    .use(epayV2Plugin(gw))
    .use(hashpayPlugin(gw))
    .use(reportPlugin(gw))
    .use(vmqPlugin(gw))
    .use(
      // The payer-facing routes, and only they, are rate limited per IP.
      new Elysia({ name: "xpay-public" }).onBeforeHandle(publicRateLimit(gw)).use(cashierApiPlugin(gw)).use(payPagePlugin(gw)).use(qrcodePlugin()).use(payTypeIconsPlugin()),
    );
  if (o.admin !== false) app.use(adminPlugin(gw));
  for (const plugin of plugins) app.use(plugin);
  return app;
}

export type App = ReturnType<typeof buildApp>;
