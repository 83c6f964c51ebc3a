// Random outboxes and the worker's own fair-share rule, for the claim's first-rows read against the
// walk by merchant (test/store/claim-first-due.test.ts).
import { type Caps, InFlight } from "../../src/core/notify/fairness.ts";
import { seeded } from "../seeded.ts";

export const NOW_MS = 1_800_000_000_000;
export const PIDS = [1001, 1002, 1003, 1004, 1005];
const URLS = ["http://a.example/n", "http://b.example/n", "http://c.example:8080/n"];

/** `seeded` scaled: a number in [0, n). */
function random(seed: number): (n: number) => number {
  const next = seeded(seed);
  return (n) => next() * n;
}

export interface OutboxRow {
  tradeNo: string;
  pid: number;
  url: string;
  status: string;
  due: number;
  claimedUntil: number;
}

export interface ClaimCase {
  rows: OutboxRow[];
  caps: Caps;
  limit: number;
  /** Seeds the rule's shares already taken (the same for the walk and the claim). */
  ruleSeed: number;
}

/** Up to 39 rows: mostly pending, due in the last minute or not yet (ties in due time on purpose), some leased. */
export function claimCase(seed: number): ClaimCase {
  const rnd = random(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd(xs.length))]!;
  const rows = Array.from({ length: Math.floor(rnd(40)) }, (_, i) => ({
    tradeNo: `T${i}`,
    pid: pick(PIDS),
    status: rnd(1) < 0.8 ? "pending" : rnd(1) < 0.5 ? "delivered" : "failed",
    due: NOW_MS - 60_000 + Math.floor(rnd(8)) * 10_000,
    claimedUntil: rnd(1) < 0.2 ? NOW_MS + 60_000 : rnd(1) < 0.1 ? NOW_MS - 1 : 0,
    url: pick(URLS),
  }));
  return { rows, caps: { perMerchant: 1 + Math.floor(rnd(6)), perTarget: 1 + Math.floor(rnd(8)) }, limit: 1 + Math.floor(rnd(20)), ruleSeed: Math.floor(rnd(1e9)) };
}

/** The worker's rule (notify/fairness.ts) with some shares already taken by attempts in flight; `asked` in order. */
export function rule(c: ClaimCase) {
  const rnd = random(c.ruleSeed);
  const shares = new InFlight();
  const busy = Math.floor(rnd(6));
  for (let i = 0; i < busy; i++) shares.admit(-1 - i, PIDS[Math.floor(rnd(PIDS.length))]!, URLS[Math.floor(rnd(URLS.length))]!, c.caps);
  const asked: number[] = [];
  return { asked, admit: (r: { id: number; pid: number; url: string }) => (asked.push(r.id), shares.admit(r.id, r.pid, r.url, c.caps)) };
}

/** What the walk alone gives: its rows asked in its order until the pass is full; the admitted ids, which the claim leases. */
export function walkAlone(c: ClaimCase, walked: { id: number; pid: number; url: string }[]) {
  const r = rule(c);
  const admitted: number[] = [];
  for (const row of walked) {
    if (admitted.length >= c.limit) break;
    if (r.admit(row)) admitted.push(row.id);
  }
  return { asked: r.asked, leased: admitted.sort((a, b) => a - b) };
}

/** Due and unleased at NOW_MS: fewer than perMerchant of them and the walk is not needed. */
export const dueCount = (c: ClaimCase) => c.rows.filter((r) => r.status === "pending" && r.due <= NOW_MS && r.claimedUntil <= NOW_MS).length;
