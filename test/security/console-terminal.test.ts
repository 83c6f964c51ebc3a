// Issue 17 attacker review: a stranger's text in the operator's terminal. A failed console login
// writes the typed name (cut, case folded) into the failed-login counters, which
// `xpay admin failed-logins` prints (it was the audit log's `session.login_failed` until issue 27).
// Escape sequences (clear the screen, set the title, recolour) and line breaks (a forged row) must
// reach the terminal as visible escapes, not as controls.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { login } from "../../src/core/admin/login.ts";
import { openGateway } from "../../src/server/bootstrap.ts";
import { tempDir } from "../helpers.ts";

const dir = tempDir("xpay-terminal-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MAIN = resolve("src/cli/main.ts");
const FORGED = "x\u001b[2J\u001b]0;pwned\u0007\r\n2026-11-23 16:53:01  alice  operator.add  operator:mallory\u009b31m";
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

test("xpay admin failed-logins shows a stranger's login name with its control characters escaped, on its own row", async () => {
  const db = join(dir, "t.db");
  const gw = openGateway({ db });
  expect((await login(gw, FORGED, "wrong", { ip: "203.0.113.5", userAgent: "x" })).kind).toBe("bad_credentials");
  gw.store.close();
  const p = Bun.spawnSync([process.execPath, MAIN, "--db", db, "admin", "failed-logins"], { env: { ...process.env, NO_COLOR: "1" } });
  const out = p.stdout.toString();
  expect(p.exitCode).toBe(0);
  const lines = out.split("\n").filter((l) => l !== "");
  expect(lines).toHaveLength(2); // the header and the one row
  expect(CONTROL.test(out.replaceAll("\n", ""))).toBe(false);
  expect(lines[1]).toContain("x\\u001b[2j");
  // --json stays exact (JSON escapes what it must).
  const json = JSON.parse(Bun.spawnSync([process.execPath, MAIN, "--db", db, "admin", "failed-logins", "--json"]).stdout.toString());
  expect(json[0]).toMatchObject({ user: FORGED.slice(0, 64).toLowerCase(), ip: "203.0.113.5", known_browser: false, failed: 1, refused: 0 });
});
