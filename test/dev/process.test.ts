// Issue 19: `xpay dev` as a merchant developer uses it, on the throwaway SQLite file it makes:
// every family end to end (test/dev/families.ts, which test/pg/dev-families.test.ts also runs on
// PostgreSQL).
import { devFamilies } from "./families.ts";

devFamilies(async () => ["dev", "--port", "0"], { sqliteFile: true });
