// A worker that dies in the middle of a batch of acknowledgements (ack-batch.test.ts): it leases
// every due notification, has the first half's attempts stored, then queues the other half's and is
// killed (SIGKILL) before that batch is written, as a server killed between the merchant's answers
// and their commit. Args: the database (file or postgres:// URL), the claim time in ms.
import { PostgresStore } from "../../src/store/postgres/index.ts";
import { isPostgresUrl } from "../../src/store/postgres/url.ts";
import { SqliteStore } from "../../src/store/sqlite/index.ts";
import type { AttemptOutcome } from "../../src/core/store.ts";

const [db, nowText] = process.argv.slice(2);
const now = Number(nowText);
const store = isPostgresUrl(db!) ? PostgresStore.open(db!) : SqliteStore.open(db!);
const due = await store.claimDueNotifications(now, 100, 90_000);
const ok: AttemptOutcome = { attempt: { attemptedAt: now + 5, durationMs: 5, httpStatus: 200, body: "success", error: "", acknowledged: true }, status: "delivered", nextAttemptAt: now + 5 };
const half = Math.floor(due.length / 2);
await Promise.all(due.slice(0, half).map((n) => store.recordNotificationAttempt(n.id, ok)));
for (const n of due.slice(half)) void store.recordNotificationAttempt(n.id, ok);
process.kill(process.pid, "SIGKILL"); // before the queued batch's turn comes
