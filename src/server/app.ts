// The HTTP application: every protocol plugin plus the cashier page, mounted on one Elysia app.
import { Elysia } from "elysia";
import type { Gateway } from "../core/gateway.ts";
import { json } from "../protocols/http.ts";
import { nativePlugin } from "../protocols/native/plugin.ts";

export function buildApp(gw: Gateway) {
  return new Elysia()
    .onError(({ code, error }) => {
      if (code === "NOT_FOUND") return json({ code: 404, msg: "not found", data: null }, 404);
      console.error("unhandled error:", error instanceof Error ? error.message : error);
      return json({ code: 500, msg: "internal error", data: null }, 500);
    })
    .use(nativePlugin(gw));
}

export type App = ReturnType<typeof buildApp>;
