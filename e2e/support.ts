// What the browser tests share: Debian chromium with the flags this closed network needs, a real
// `xpay serve` process on a free port over a temporary database, the operator's login through the
// form, a page that records what went wrong, and the screenshot paths CI keeps. Each test file
// keeps its own data and flow; only the plumbing lives here.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SHOTS = resolve("artifacts/screenshots");
export const DOCS = resolve("docs/images");
export const PASSWORD = "calm blue river 42";

/**
 * The two widths every console page is checked at (1440 px, and a 390 px phone), in Chinese, each
 * logged in as the operator. `extra` adds context options to both (colorScheme, acceptDownloads).
 */
export async function twoWidths(browser: Browser, base: string, extra: Parameters<Browser["newContext"]>[0] = {}): Promise<{ desktop: BrowserContext; phone: BrowserContext }> {
  const desktop = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "zh-CN", ...extra });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", isMobile: true, hasTouch: true, ...extra });
  for (const c of [desktop, phone]) {
    const { page } = await openPage(c);
    await login(page, base);
    await page.close();
  }
  return { desktop, phone };
}

/**
 * The networking flags are mandatory here: without them chromium reaches for Google's services and
 * hangs on the closed network. No --user-data-dir: playwright refuses it and gives every launch a
 * fresh temporary profile anyway.
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });

/** A temporary database, the CLI on it, and (after serve()) the gateway and a browser; stop() ends all. */
export interface ConsoleFixture {
  readonly dir: string;
  readonly db: string;
  /** `xpay --db DB ...args`; throws with stderr when it fails, returns stdout. */
  cli(args: string[], stdin?: string): string;
  /** Starts `xpay serve` on a free port; waits for the listening line (and the setup link if asked). */
  serve(extra?: string[], opts?: { setupLink?: boolean }): Promise<{ base: string; setupLink: string }>;
  /** A JSON POST to the running gateway. */
  post<T = { code: number; data: Record<string, string> }>(path: string, body: Record<string, string | number>): Promise<T>;
  launch(): Promise<Browser>;
  stop(): Promise<void>;
}

export function startConsole(prefix: string): ConsoleFixture {
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = join(dir, "xpay.db");
  const env = { ...process.env, NO_COLOR: "1" };
  let server: Bun.Subprocess<"ignore", "pipe", "pipe"> | undefined;
  let browser: Browser | undefined;
  let base = "";
  return {
    dir,
    db,
    cli(args, stdin) {
      const p = Bun.spawnSync([process.execPath, resolve("src/cli/main.ts"), "--db", db, ...args], { env, stdin: stdin ? new TextEncoder().encode(stdin) : undefined });
      if (p.exitCode !== 0) throw new Error(`xpay ${args.join(" ")}: ${p.stderr.toString()}`);
      return p.stdout.toString();
    },
    async serve(extra = [], opts = {}) {
      server = Bun.spawn([process.execPath, resolve("src/cli/main.ts"), "--db", db, "serve", "--port", "0", ...extra, "--log-format", "json"], { env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
      // Both lines are JSON on stdout; on a first run the setup link comes right after listening.
      const reader = server.stdout.getReader();
      let out = "";
      let setupLink = "";
      while (!base || (opts.setupLink && !setupLink)) {
        const r = await reader.read();
        if (r.done) throw new Error(`serve ended: ${out}`);
        out += new TextDecoder().decode(r.value);
        for (const line of out.split("\n").filter((l) => l.startsWith("{"))) {
          const e = JSON.parse(line);
          if (e.event === "listening") base = e.url;
          if (e.event === "admin.setup_link") setupLink = e.url;
        }
      }
      void (async () => { for (let r = await reader.read(); !r.done; r = await reader.read()); })(); // keep the pipe drained
      return { base, setupLink };
    },
    async post(path, body) {
      const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return await res.json();
    },
    async launch() {
      browser = await launchChromium();
      return browser;
    },
    async stop() {
      await browser?.close();
      server?.kill("SIGTERM");
      await server?.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The operator's login through the form, as a person does it. */
export async function login(page: Page, base: string, user = "admin", password = PASSWORD): Promise<void> {
  await page.goto(`${base}/admin/login`);
  await page.fill("#f-user", user);
  await page.fill("#f-password", password);
  await page.click("button[type=submit]");
  await page.waitForURL(`${base}/admin`);
}

/**
 * A page that records every console error or warning (CSP refusals included) and page error in
 * `problems`, and every answer of 400 and above in `refusals`. Without `split` the refusals go to
 * `problems` too, so one assertion covers everything (the tests say which refusals they expect).
 */
export async function openPage(context: BrowserContext, split = false): Promise<{ page: Page; problems: string[]; refusals: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  const refusals = split ? [] : problems;
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  // "Failed to load resource" names no URL; the response handler records which one (/favicon.ico included: it is served).
  page.on("console", (m) => (m.type() === "error" || m.type() === "warning") && !m.text().startsWith("Failed to load resource") && problems.push(`console ${m.type()}: ${m.text()}`));
  page.on("response", (r) => r.status() >= 400 && refusals.push(`${r.status()} ${new URL(r.url()).pathname}`));
  return { page, problems, refusals };
}

/** `shot(page, name)` for one test file: artifacts/screenshots/PREFIX-NAME.png, the full page unless told. */
export const shots = (prefix: string) => (page: Page, name: string, full = true) =>
  page.screenshot({ path: join(SHOTS, `${prefix}-${name}.png`), fullPage: full });

/**
 * The operator guide's pictures, console-NAME.png, the first screen only: always to the CI artifacts; to docs/images (committed) only when
 * asked (`XPAY_DOC_SHOTS=1 npm run test:e2e`), so a test run never leaves the work tree changed.
 */
export async function docShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `console-${name}.png`) });
  if (process.env.XPAY_DOC_SHOTS === "1") await page.screenshot({ path: join(DOCS, `console-${name}.png`) });
}
