// Slowloris: connections that send part of a request and then stall must not keep a real
// merchant or payer waiting, and the server closes them itself (Bun's idle timeout, 10 s).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Socket } from "bun";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { harness, type Harness, nativeCreate, seed } from "../helpers.ts";

const HELD = 300;
let h: Harness;
let server: RunningServer;
beforeAll(async () => {
  h = harness();
  await seed(h);
  server = await startServer(h.gw, { port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await server.stop();
  h.close();
});

test(`${HELD} stalled connections (half headers, half bodies) do not delay a create, and the server closes them`, async () => {
  const closed = new Set<number>();
  const sockets: Socket<{ id: number }>[] = [];
  for (let i = 0; i < HELD; i++) {
    const s = await Bun.connect<{ id: number }>({
      hostname: "127.0.0.1",
      port: server.port,
      data: { id: i },
      socket: { data() {}, close(sock) { closed.add(sock.data.id); }, error(sock) { closed.add(sock.data.id); } },
    });
    // Half of them stop inside the headers, the others promise a body they never finish.
    s.write(i % 2 === 0 ? "POST /xpay/order/create HTTP/1.1\r\nHost: x\r\nX-Slow: " : "POST /api/report/1001/pc HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\nami");
    sockets.push(s);
  }

  const started = performance.now();
  const res = await fetch(`${server.url}/xpay/order/create`, { method: "POST", body: new URLSearchParams(nativeCreate()) });
  const ms = performance.now() - started;
  expect(((await res.json()) as { code: number }).code).toBe(200);
  expect(ms).toBeLessThan(2000); // a bound on starvation, not a speed claim: the create normally takes a few ms

  const deadline = Date.now() + 20_000;
  while (closed.size < HELD && Date.now() < deadline) await Bun.sleep(250);
  expect(closed.size).toBe(HELD);
  for (const s of sockets) s.end();
}, 30_000);
