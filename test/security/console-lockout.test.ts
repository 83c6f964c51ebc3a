// Issue 27 item 7, the lockout: five wrong passwords for `ADMIN` from one address locked the real
// operator out for 3 minutes, renewable forever. Now a browser that logged in as the operator
// before (its signed device cookie) or holds a live session of the operator is not subject to the
// user name's lockout, whoever fails on the name and from wherever (the operator's own address
// included); only browsers that never logged in as that user are locked. A known browser has a
// limit of its own, and the cookie cannot be forged, altered or borrowed from another operator.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { type AdminHarness, adminHarness, deviceCookieOf, loginForm, PASSWORD, sessionCookieOf } from "../admin/support.ts";

setDefaultTimeout(60_000); // argon2 on every attempt, on a shared two-core machine
let h: AdminHarness;
beforeEach(async () => (h = await adminHarness({ name: "ADMIN", trustProxy: 1 })));
afterEach(() => h.close());

const HOME = "203.0.113.5"; // the operator's own address (an office NAT the attacker shares)
const toMinuteStart = () => h.clock.advance(60 - (h.clock.now() % 60));

/** Five wrong passwords on ADMIN, from `ip`: the user name's whole share for unknown browsers. */
async function lockAdmin(ip: string) {
  for (let i = 0; i < 5; i++) await loginForm(h, "admin", `guess ${i}`, { ip });
}

test("five wrong passwords for ADMIN from the operator's own address, renewed for 20 minutes, never lock out the operator's known browser; unknown browsers stay locked", async () => {
  const first = await loginForm(h, "ADMIN", PASSWORD, { ip: HOME });
  expect(first.status).toBe(303);
  const device = deviceCookieOf(first) ?? ""; // its form: the next test
  toMinuteStart();
  for (let round = 0; round < 5; round++) {
    await lockAdmin(HOME);
    // A stranger with the right password is locked out (that is the lockout: guessing stops)...
    const stranger = await loginForm(h, "ADMIN", PASSWORD, { ip: "198.51.100.77" });
    expect(stranger.status).toBe(429);
    // ...the operator's browser, from the same address the flood comes from, is not.
    const operator = await loginForm(h, "ADMIN", PASSWORD, { ip: HOME, cookie: device });
    expect({ round, status: operator.status }).toEqual({ round, status: 303 });
    expect(sessionCookieOf(operator)).toBeDefined();
    expect(deviceCookieOf(operator)).toBe(device); // the same browser keeps its id
    h.clock.advance(300); // the attacker renews the lock every five minutes
  }
});

test("the device cookie is HttpOnly, SameSite=Strict, Path=/admin, 180 days; a forged, altered or another operator's cookie is an unknown browser", async () => {
  await h.addOperator("bob");
  const mine = await loginForm(h, "admin", PASSWORD, { ip: HOME });
  const raw = mine.headers.getSetCookie().find((c) => c.startsWith("xpay_device="));
  expect(raw).toMatch(/^xpay_device=[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}; Path=\/admin; SameSite=Strict; HttpOnly; Max-Age=15552000$/);
  const device = deviceCookieOf(mine)!;
  const bobs = deviceCookieOf(await loginForm(h, "bob", PASSWORD, { ip: HOME }))!;
  toMinuteStart();
  await lockAdmin("198.51.100.1");
  const [id, op, mac] = device.slice("xpay_device=".length).split(".") as [string, string, string];
  const bobOp = bobs.split(".")[1]!;
  const tries = {
    forged: `xpay_device=${"A".repeat(22)}.${op}.${"B".repeat(43)}`,
    "signature altered": `xpay_device=${id}.${op}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
    "id altered": `xpay_device=${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}.${op}.${mac}`,
    "operator altered": `xpay_device=${id}.${bobOp}.${mac}`,
    "bob's cookie": bobs,
  };
  for (const [what, cookie] of Object.entries(tries)) {
    expect({ what, status: (await loginForm(h, "admin", PASSWORD, { ip: HOME, cookie })).status }).toEqual({ what, status: 429 });
  }
  expect((await loginForm(h, "admin", PASSWORD, { ip: HOME, cookie: device })).status).toBe(303);
});

test("a known browser has a limit of its own: ten wrong passwords in 15 minutes hold that browser back, not the operator's other browsers", async () => {
  const laptop = deviceCookieOf(await loginForm(h, "admin", PASSWORD, { ip: HOME }))!;
  const phone = deviceCookieOf(await loginForm(h, "admin", PASSWORD, { ip: "198.51.100.200" }))!;
  expect(laptop).not.toBe(phone);
  toMinuteStart();
  for (let i = 0; i < 10; i++) expect((await loginForm(h, "admin", `typo ${i}`, { ip: HOME, cookie: laptop })).status).toBe(401);
  const held = await loginForm(h, "admin", PASSWORD, { ip: HOME, cookie: laptop });
  expect(held.status).toBe(429);
  expect(held.headers.get("retry-after")).toBe("900");
  expect((await loginForm(h, "admin", PASSWORD, { ip: HOME, cookie: phone })).status).toBe(303);
  // The known browser's failures never counted against the user name or the address.
  expect((await loginForm(h, "admin", PASSWORD, { ip: HOME })).status).toBe(303);
});

test("a browser holding a live session of the operator is known too; a session of another operator is not", async () => {
  const bob = await h.addOperator("bob");
  toMinuteStart();
  await lockAdmin("198.51.100.1");
  const own = await h.session();
  const other = await h.session(bob);
  expect((await loginForm(h, "admin", PASSWORD, { ip: HOME, cookie: other.cookie })).status).toBe(429);
  expect((await loginForm(h, "admin", PASSWORD, { ip: HOME, cookie: own.cookie })).status).toBe(303);
});
