// GET /favicon.ico: a real icon (ICO with 16 and 32 px images) with the assets' cache headers, on
// the main listener and on the console's own one, and linked from the console's pages.
// That the compiled binary carries it: scripts/smoke-binary.ts asks the binary for it.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildAdminApp } from "../../src/server/admin-listener.ts";
import { renderCashierPage } from "../../src/server/cashier/page.ts";
import { favicon } from "../../scripts/gen-favicon.ts";
import { harness } from "../helpers.ts";

const h = harness();
afterAll(() => h.close());
const committed = readFileSync(join(import.meta.dir, "../../src/server/favicon.ico"));

async function expectIcon(res: Response): Promise<void> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/x-icon");
  expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  const body = Buffer.from(await res.arrayBuffer());
  expect(body.equals(committed)).toBe(true);
}

describe("/favicon.ico", () => {
  test("the gateway answers with the icon", async () => {
    await expectIcon(await h.app.handle(new Request("http://localhost/favicon.ico")));
  });

  test("the console's own listener answers with it too", async () => {
    await expectIcon(await buildAdminApp(h.gw).handle(new Request("http://localhost/favicon.ico")));
  });

  test("is an ICO of a 16 and a 32 pixel 32-bit image, the drawing scripts/gen-favicon.ts makes", () => {
    expect([...committed.subarray(0, 6)]).toEqual([0, 0, 1, 0, 2, 0]);
    expect([committed[6], committed[7], committed[22], committed[23]]).toEqual([16, 16, 32, 32]);
    expect(committed.length).toBeLessThan(8 * 1024);
    expect(favicon().equals(committed)).toBe(true); // the committed file is the generator's output
  });

  test("the console links it; the cashier page links nothing (everything inline), the browser asks on its own", async () => {
    const login = await (await h.app.handle(new Request("http://localhost/admin/login"))).text();
    expect(login).toContain('<link rel="icon" href="/favicon.ico"');
    expect(renderCashierPage({ tradeNo: "20240101120000123456" })).not.toContain("favicon");
  });
});
