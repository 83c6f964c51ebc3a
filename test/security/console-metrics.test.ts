// Issue 17 attacker review: /metrics without metrics_token is for loopback peers only. Behind
// --trust-proxy the client address comes from X-Forwarded-For, which a stranger who reaches the
// port directly (serve on 0.0.0.0, a published container port) writes himself: "127.0.0.1" must
// not open the counters. The socket peer must be loopback too; a local proxy that relays a
// remote client still adds that client's address, which is refused.
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openGateway } from "../../src/server/bootstrap.ts";
import { buildApp } from "../../src/server/app.ts";
import { startServer } from "../../src/server/serve.ts";
import { tempDir } from "../helpers.ts";

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

function gateway(trustProxy: number) {
  const dir = tempDir();
  const gw = openGateway({ db: join(dir, "m.db"), trustProxy });
  closers.push(() => rmSync(dir, { recursive: true, force: true }), () => gw.store.close());
  return gw;
}

test("behind --trust-proxy, a forged X-Forwarded-For: 127.0.0.1 from a peer that is not loopback is refused", async () => {
  const app = buildApp(gateway(1)); // app.handle: no socket, the peer is no loopback address
  for (const xff of ["127.0.0.1", "::1", "203.0.113.9, 127.0.0.1"]) {
    expect({ xff, status: (await app.handle(new Request("http://gw.example/metrics", { headers: { "x-forwarded-for": xff } }))).status }).toEqual({ xff, status: 403 });
  }
});

test("behind --trust-proxy, a loopback peer (the local proxy or Prometheus) whose client is loopback may read it; a relayed stranger may not", async () => {
  const gw = gateway(1);
  const server = await startServer(gw, { port: 0, host: "127.0.0.1" });
  closers.push(() => server.stop());
  expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  expect((await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } })).status).toBe(200);
  expect((await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } })).status).toBe(403);
  expect((await fetch(`${server.url}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1, 203.0.113.9" } })).status).toBe(403);
});
