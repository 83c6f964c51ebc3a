// What the hash-protocol vendor demo does, written independently of src/: generate_xh_hash
// (ksort, skip null/'' and hash, k=v&..., append the secret, md5), a JSON body posted under a form
// content type with numbers for time and trade_order_id.
import { createHash } from "node:crypto";
import type { Harness } from "../helpers.ts";
import { SECRET } from "../helpers.ts";

export function xhHash(data: Record<string, unknown>, secret = SECRET): string {
  const text = Object.keys(data)
    .filter((k) => k !== "hash" && data[k] !== null && data[k] !== undefined && data[k] !== "")
    .sort()
    .map((k) => `${k}=${data[k]}`)
    .join("&");
  return createHash("md5").update(text + secret, "utf8").digest("hex");
}

export function hashParams(h: Harness, o: Record<string, string | number> = {}, secret = SECRET): Record<string, string | number> {
  const data: Record<string, string | number> = {
    version: "1.1", appid: "1001", trade_order_id: Math.floor(Math.random() * 1e9), total_fee: "10.00", title: "耐克球鞋",
    time: h.clock.now(), notify_url: "http://127.0.0.1/notify.php", nonce_str: "0061308673", ...o,
  };
  for (const k of Object.keys(data)) if (data[k] === "") delete data[k];
  return { ...data, hash: xhHash(data, secret) };
}

/** The vendor demo: JSON text under application/x-www-form-urlencoded. `form` posts a real form. */
export async function hashPost(h: Harness, path: string, data: Record<string, string | number>, as: "demo" | "form" = "demo") {
  const body = as === "demo" ? JSON.stringify(data) : new URLSearchParams(Object.entries(data).map(([k, v]) => [k, String(v)])).toString();
  const res = await h.app.handle(new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }));
  return (await res.json()) as any;
}

/** The demo's response check: recompute hash over every other top-level field. */
export function demoVerifies(body: Record<string, unknown>, secret = SECRET): boolean {
  return typeof body.hash === "string" && body.hash === xhHash(body, secret);
}
