// Issue 17 attacker review: a stranger's text in the pretty log. The login form's user name (and
// any other field a stranger fills) reaches `admin.login_failed` as typed; the pretty format (the
// default of `xpay serve`, what journald and a terminal show) must neither let it start a line of
// its own (a forged "admin.login user=alice") nor pass terminal control sequences through.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/server/logger.ts";
import { type AdminHarness, adminHarness, loginForm } from "../admin/support.ts";

let h: AdminHarness;
const written: string[] = [];
beforeAll(async () => {
  h = await adminHarness();
  h.gw.log = createLogger("pretty", (l) => written.push(l));
});
afterAll(() => h.close());

/** picocolors' own colour codes (it colours under CI=true even without a TTY); the stranger's text holds none. */
const uncoloured = (l: string) => l.replace(/\x1b\[\d+m/g, "");

const FORGED = "x\n16:53:01 admin.login user=alice ip=10.0.0.1 session=7\r\u001b[2J\u001b]0;pwned\u0007\u009b31m\u2028";

test("a user name with line breaks and escape sequences stays on its one line, shown escaped", async () => {
  expect((await loginForm(h, FORGED, "wrong password")).status).toBe(401);
  const failed = written.filter((l) => l.includes("admin.login_failed"));
  expect(failed).toHaveLength(1);
  // Apart from the logger's own colours, nothing of the stranger's is raw.
  for (const l of written.map(uncoloured)) expect({ l, bad: /[\n\r\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/.test(l) }).toEqual({ l, bad: false });
  expect(uncoloured(failed[0]!)).toContain("\\n16:53:01 admin.login user=alice");
});

test("plain values are printed as before", () => {
  const lines: string[] = [];
  createLogger("pretty", (l) => lines.push(l)).event("admin.login", { user: "alice", ip: "10.0.0.1", n: 3 });
  expect(uncoloured(lines[0]!)).toEndWith("admin.login user=alice ip=10.0.0.1 n=3");
});
