// The orders CSV through the real server (`xpay serve` as its own process) to a client that stops reading for
// longer than Bun's idle timeout (10 s), as a browser on a slow link or a paused download does. Bun
// re-arms that timer only on writes and writable events, so a reader that takes nothing for 10 s
// once the kernel's buffers are full had its download cut mid-file, the CSV silently shorter (found
// by bench/console-rss.ts on a million orders). The export now asks for Bun's longest idle time.
// This test waits 16 s on purpose: the timer it is about cannot be shortened from outside.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedOrders } from "../../bench/seed-orders.ts";
import { SESSION_COOKIE } from "../../src/admin/guard.ts";
import { CLI_ACTOR } from "../../src/core/admin/audit.ts";
import { addOperator } from "../../src/core/admin/operators.ts";
import { startSession } from "../../src/core/admin/sessions.ts";
import { openGateway } from "../../src/server/bootstrap.ts";

// ~8 MB of CSV: more than loopback's socket buffers take while nobody reads.
const ORDERS = 80_000;
const PAUSE_MS = 16_000;
const dir = mkdtempSync(join(tmpdir(), "xpay-export-slow-"));
let server: Bun.Subprocess<"ignore", "pipe", "inherit"> | undefined;
let port = 0;
let cookie = "";

beforeAll(async () => {
  const db = join(dir, "xpay.db");
  await seedOrders(db, { orders: ORDERS, days: 10, merchants: 2, accounts: 4, now: Math.floor(Date.now() / 1000) });
  const gw = openGateway({ db });
  await addOperator(gw, CLI_ACTOR, "slow", "slow reader password 9");
  const { token } = await startSession(gw, (await gw.store.admin.findOperator("slow"))!, { ip: "127.0.0.1", userAgent: "test" });
  gw.store.close();
  cookie = `${SESSION_COOKIE}=${token}`;
  // Its own process: a client in the server's process does not leave the kernel's buffers full.
  server = Bun.spawn([process.execPath, join(import.meta.dir, "../../src/cli/main.ts"), "--db", db, "serve", "--port", "0", "--log-format", "json"], {
    stdin: "ignore", stdout: "pipe", stderr: "inherit",
  });
  const reader = server.stdout.getReader();
  let out = "";
  while (!port) {
    const r = await reader.read();
    if (r.done) throw new Error(`serve ended: ${out}`);
    out += new TextDecoder().decode(r.value);
    const listening = out.split("\n").find((l) => l.includes('"event":"listening"'));
    if (listening) port = Number(new URL(JSON.parse(listening).url).port);
  }
  void (async () => { for (let r = await reader.read(); !r.done; r = await reader.read()); })(); // keep the pipe drained
}, 30_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await server?.exited;
  rmSync(dir, { recursive: true, force: true });
});

/** GET over a raw socket that takes the first bytes, reads nothing for `pauseMs`, then reads to the end. */
function pausedDownload(port: number, path: string, pauseMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    const s = connect({ host: "127.0.0.1", port }, () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`);
    });
    s.once("data", (first: Buffer) => {
      parts.push(first);
      s.pause();
      setTimeout(() => {
        s.on("data", (b: Buffer) => parts.push(b));
        s.resume();
      }, pauseMs);
    });
    s.on("error", reject);
    s.on("close", () => resolve(Buffer.concat(parts)));
  });
}

/** An HTTP/1.1 chunked body: its bytes, and whether the last (zero-length) chunk came. */
function dechunk(b: Buffer): { text: string; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = b.indexOf("\r\n", at);
    if (eol === -1) return { text: Buffer.concat(parts).toString(), complete: false };
    const size = parseInt(b.subarray(at, eol).toString(), 16);
    if (size === 0) return { text: Buffer.concat(parts).toString(), complete: true };
    if (eol + 2 + size > b.length) return { text: Buffer.concat(parts).toString(), complete: false };
    parts.push(b.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

test("a download that stops reading for 16 s still gets the whole CSV", async () => {
  const raw = await pausedDownload(port, "/admin/orders/export.csv", PAUSE_MS);
  const head = raw.subarray(0, raw.indexOf("\r\n\r\n")).toString();
  expect(head.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
  expect(head.toLowerCase()).toContain("transfer-encoding: chunked");
  const body = dechunk(raw.subarray(head.length + 4));
  // A whole answer ends with the zero-length chunk; a cut one does not.
  expect(body.complete).toBe(true);
  expect(body.text.trimEnd().split("\r\n")).toHaveLength(ORDERS + 1);
}, 60_000);
