// /admin/backups in a real browser against `xpay serve --backup-dir` (issue 28): 立即备份 writes a
// backup, the list offers it, the download arrives as a file (a real SQLite database); 390 px fits.
// Screenshots: artifacts/screenshots/admin-backups-*.png.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import { openPage, PASSWORD, SHOTS, shots, startConsole, twoWidths } from "./support.ts";

const xc = startConsole("xpay-backups-e2e-");
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
let base = "";

beforeAll(async () => {
  xc.cli(["migrate"]);
  xc.cli(["admin", "add", "--user", "admin", "--password-stdin"], `${PASSWORD}\n`);
  ({ base } = await xc.serve(["--backup-dir", join(xc.dir, "backups"), "--backup-every", "24h", "--backup-keep", "3"]));
  browser = await xc.launch();
  ({ desktop, phone } = await twoWidths(browser, base, { acceptDownloads: true }));
}, 90_000);

afterAll(async () => {
  await xc.stop();
  console.log(`screenshots: ${SHOTS}/admin-backups-*.png`);
});

const shot = shots("admin-backups");

test("1440: back up now, download it", async () => {
  const { page, problems } = await openPage(desktop);
  await page.goto(`${base}/admin`);
  await page.click('nav.sidenav a[href="/admin/backups"]');
  await page.click("#backups-run");
  await page.waitForSelector("#backups-notice");
  expect(await page.textContent("#backups-notice")).toContain("备份完成");
  const rows = page.locator("#backups-table tr[data-backup]");
  expect(await rows.count()).toBeGreaterThanOrEqual(1);
  await shot(page, "done");
  const [download] = await Promise.all([page.waitForEvent("download"), rows.first().locator("a").click()]);
  const path = join(xc.dir, "downloaded.db");
  await download.saveAs(path);
  expect(readFileSync(path).subarray(0, 15).toString()).toBe("SQLite format 3");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);

test("390: the page fits", async () => {
  const { page, problems } = await openPage(phone);
  await page.goto(`${base}/admin/backups`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "phone");
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
