// What makes a database a test database, for the commands that must never carry one into
// production: `xpay serve` refuses to start on it, and `xpay db copy` refuses to copy out of it
// unless told to leave the test data behind. Test data is what `xpay dev` seeds and anyone can read
// in this source: its marker setting, the fixed platform key pair (a V2 "paid" signed with it is
// forgeable by anyone), and the test merchant with the merchant guide's AppSecret.
//
// A database is a test database by its settings alone (the marker, or the public platform key):
// an operator's real database may well hold merchant 1001 with the guide's AppSecret (the README's
// walkthrough makes one), and that is his business, not a sign of `xpay dev`.
//
// `xpay serve` loads nothing of test mode (src/core/dev), so the public values are recognised here
// by their SHA-256; test/dev/serve-has-no-dev.test.ts holds them to core/dev's.
import { createHash } from "node:crypto";

/** Setting that marks a database `xpay dev` made; `xpay dev --db` refuses any other database. */
export const DEV_MARKER_KEY = "dev_database";
/** The test merchant `xpay dev` seeds (core/dev/mode.ts DEV_PID). */
export const TEST_PID = 1001;

/** SHA-256 (hex) of xpay dev's public values (core/dev/keys.ts, core/dev/mode.ts). */
export const TEST_FINGERPRINTS = {
  platformPrivateKey: "fd92d4fc271e70e5b5d7f2c46488d0299fd4b76947ad3c280192fd05cda8406f",
  platformPublicKey: "4295045181f662877636c96d9e18027f28fbd94f8d085d47b109b9005e0c3adf",
  merchantPublicKey: "5dbbadb25bd1209f958437a87bd01edb1ea4b55a09fb02ea5aebe778f946a192",
  merchantSecret: "ff25d2389ab7917a77cc0c3546331401054d53cb7b2edeedb7b4e7742bb5286d",
} as const;

const sha256 = (v: unknown) => (typeof v === "string" ? createHash("sha256").update(v).digest("hex") : "");

/** The settings `xpay dev` writes that make a database a test one, with what each is. */
const TEST_SETTINGS: Record<string, { value: string | null; what: string }> = {
  [DEV_MARKER_KEY]: { value: null, what: "the xpay dev mark" },
  platform_private_key: { value: TEST_FINGERPRINTS.platformPrivateKey, what: "the public test platform private key" },
  platform_public_key: { value: TEST_FINGERPRINTS.platformPublicKey, what: "the public test platform public key" },
};

/** A setting that is test data: the marker whatever its value, a platform key when it is the public test one. */
export function isTestSetting(key: string, value: string): boolean {
  const t = TEST_SETTINGS[key];
  return t !== undefined && (t.value === null || t.value === sha256(value));
}

/** What of the test setup these settings hold, in words; empty for a real database. */
export function testSettingsIn(settings: Record<string, string>): string[] {
  return Object.entries(settings).filter(([k, v]) => isTestSetting(k, v)).map(([k]) => TEST_SETTINGS[k]!.what);
}

/** The one-line refusal of `xpay serve` (and of `xpay db copy` without --drop-test-data). */
export function testDatabaseProblem(where: string, found: string[]): string {
  return `${where} was made by xpay dev (it holds ${found.join(", ")}: public test values anyone can sign with)`;
}

/** A merchant of a test database that is test data: the seeded one, or any holding its public AppSecret or V2 key. */
export function isTestMerchant(m: Record<string, unknown>): boolean {
  return String(m.pid) === String(TEST_PID) || sha256(m.secret) === TEST_FINGERPRINTS.merchantSecret || sha256(m.rsa_public_key) === TEST_FINGERPRINTS.merchantPublicKey;
}

/** One row as a copy reads it: a column's value, undefined when the table has no such column. */
export type RowReader = (column: string) => unknown;

export interface TestDataFound {
  /** What was found, in words, for the refusal and the copy's summary. */
  what: string[];
  /** True for a row that is test data by its own values; rows referencing one go with it. */
  out(table: string, get: RowReader): boolean;
}

/**
 * Reads a source's settings and merchants (small tables) and says what test data it holds, or null.
 * Left out of a copy: the test settings, the test merchants and every row of theirs (any table's
 * `pid` column names a merchant), and through the foreign keys everything that references those.
 */
export async function findTestData(rows: (table: string) => Promise<Record<string, unknown>[]>): Promise<TestDataFound | null> {
  const settings = Object.fromEntries((await rows("settings")).map((r) => [String(r.key), String(r.value)]));
  const found = testSettingsIn(settings);
  if (found.length === 0) return null;
  const merchants = (await rows("merchants")).filter(isTestMerchant);
  const pids = new Set(merchants.map((m) => String(m.pid)));
  const what = [...found, ...merchants.map((m) => `test merchant ${String(m.pid)}`)];
  return {
    what,
    out(table, get) {
      if (table === "settings") return isTestSetting(String(get("key")), String(get("value")));
      const pid = get("pid");
      return pid !== undefined && pid !== null && pids.has(String(pid));
    },
  };
}
