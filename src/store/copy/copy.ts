// `xpay db copy`: an operator's whole data from one database into an empty other, SQLite or
// PostgreSQL either side. The source is read in one snapshot, at this binary's schema version
// (a copy never migrates the source: that is the operator's step, with his backup). The
// destination is refused when it holds a row, else migrated to the same version, and every table
// is written in one transaction, batch after batch in key order (memory stays one batch), parents
// before children. After the commit, every table's count in the destination is compared with the
// source's. The copy is appended to the destination's audit log as `db.copy`: that database's
// history otherwise starts with rows nobody there wrote. A source holding test data (`xpay dev`'s
// public keys and merchant) is refused before the destination is opened, unless the caller asks to
// leave that data behind (leave-out.ts).
import { publicTradeNo } from "../trade-no.ts";
import { LeaveOut, type LeaveOutRule, TestDataError } from "./leave-out.ts";
import { DERIVED_TABLES, planCopy } from "./plan.ts";
import { CopyError, type CopySource, type CopyTarget, type Row, type SourceSnapshot, type TableShape } from "./types.ts";
import { checkRow } from "./values.ts";

export interface CopyResult {
  version: number;
  /** Rows copied per table, in the order written. */
  tables: { name: string; rows: number }[];
  /** The `db.copy` entry appended to the destination's audit_log (counted in its verification). */
  audited: boolean;
  /** Test data left behind: what it was and the rows per table; null when the source held none. */
  left: { what: string[]; tables: { name: string; rows: number }[] } | null;
}

/** Reads a source table whole, as records (only for small ones: settings, merchants). */
export type TableReader = (table: string) => Promise<Record<string, unknown>[]>;

export interface CopyOptions {
  /** Rows read and written at a time. */
  batch?: number;
  /** Unix seconds, for the audit entry. */
  now?: () => number;
  /** false: no `db.copy` entry (xpay backup on PostgreSQL: the file is an exact copy). */
  audit?: boolean;
  /**
   * Finds test data in the source (core/dev/test-data.ts); with `drop` it is left out of the copy,
   * without it a source holding any is refused (TestDataError) and nothing is written.
   */
  testData?: { find(rows: TableReader): Promise<LeaveOutRule | null>; drop: boolean };
}

const AUDIT_TABLE = "audit_log";

function checkVersion(side: string, where: string, version: number, latest: number): void {
  if (version === 0) throw new CopyError(`${side} ${where} holds no xpay database (no schema version)`);
  if (version > latest) throw new CopyError(`${side} ${where} has schema version ${version}, newer than this xpay knows (${latest}); copy with the xpay that upgraded it`);
  if (version < latest && side === "source") {
    throw new CopyError(`source ${where} has schema version ${version}, older than this xpay's (${latest}); run \`xpay migrate\` on the source first (xpay --db SOURCE migrate), then copy`);
  }
}

/**
 * Copies `source` into the database `openTarget` opens, which it closes at the end; the target is
 * opened only once the source was found at the right version, so a refused source leaves no new
 * file behind. The caller closes the source.
 */
export async function copyDatabase(source: CopySource, openTarget: () => CopyTarget, o: CopyOptions = {}): Promise<CopyResult> {
  const opened: { target?: CopyTarget } = {};
  try {
    const copied = await source.snapshot(async (s) => {
      checkVersion("source", source.where, s.version, source.latest);
      const rule = o.testData ? await o.testData.find(reader(s)) : null;
      if (rule && !o.testData!.drop) throw new TestDataError(source.where, rule.what);
      opened.target = openTarget();
      const leave = rule ? { rule, out: new LeaveOut(rule, s.tables) } : null;
      return fill(source, s, opened.target, o.batch ?? 1000, o.audit === false ? null : (o.now ?? (() => Math.floor(Date.now() / 1000))), leave);
    });
    await verify(opened.target!, copied);
    return copied;
  } finally {
    await opened.target?.close();
  }
}

function reader(s: SourceSnapshot): TableReader {
  return async (name) => {
    const t = s.tables.find((x) => x.name === name);
    if (!t) return [];
    const out: Record<string, unknown>[] = [];
    for await (const rows of s.batches(t, 1000)) for (const r of rows) out.push(Object.fromEntries(t.columns.map((c, i) => [c.name, r[i]])));
    return out;
  };
}

/**
 * Refuses a destination that cannot take the copy, then writes it in one transaction. `now` null:
 * no audit entry; `leave`: rows left behind (counted, never written).
 */
async function fill(source: CopySource, s: SourceSnapshot, target: CopyTarget, batch: number, now: (() => number) | null, leave: { rule: LeaveOutRule; out: LeaveOut } | null): Promise<CopyResult> {
  if (target.latest < s.version) {
    throw new CopyError(`this xpay's schema on ${target.where} stops at version ${target.latest}, the source is at ${s.version}; copy with an xpay that has both; nothing was copied`);
  }
  const before = await target.inspect();
  if (before.version > 0) checkVersion("destination", target.where, before.version, target.latest);
  // A derived table is the destination's own (the directory version's one row is its migration's).
  const busy = await target.firstNonEmpty(before.tables.filter((t) => !DERIVED_TABLES.has(t)));
  if (busy) {
    throw new CopyError(`destination ${target.where} is not empty: table ${busy} holds rows; db copy fills only an empty database (a new file, or a new PostgreSQL database); nothing was written`);
  }
  const prepared = await target.prepare();
  if (prepared.version !== s.version) throw new CopyError(`destination ${target.where} is at schema version ${prepared.version}, the source at ${s.version}; nothing was copied`);
  const tables = planCopy(s.tables, prepared.tables);
  const done: CopyResult["tables"] = [];
  const audited = now !== null && tables.some((t) => t.name === AUDIT_TABLE);
  try {
    await target.transaction(async (w) => {
      for (const t of tables) {
        const expected = await s.count(t);
        let n = 0;
        let written = 0;
        for await (const rows of s.batches(t, batch)) {
          const kept = publicNumbers(t, leave ? leave.out.keep(t, rows) : rows);
          if (kept.length > 0) await w.insert(t, kept.map((r, i) => checkRow(t, r, written + i + 1)));
          n += rows.length;
          written += kept.length;
        }
        if (n !== expected) throw new CopyError(`table ${t.name}: read ${n} rows where the snapshot counts ${expected}`);
        done.push({ name: t.name, rows: written });
      }
      await w.finish(tables, await s.highWater());
      const rows = done.reduce((a, t) => a + t.rows, 0);
      const left = leave ? { left_out: { what: leave.rule.what, rows: Object.fromEntries(leave.out.counts) } } : {};
      if (audited) await w.audit({ at: now!(), action: "db.copy", target: "database", after: { from: source.where, version: s.version, tables: done.length, rows, ...left } });
    });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new CopyError(`${why}; nothing was committed (${target.where} keeps its schema and no rows: correct the cause and copy again)`);
  }
  const left = leave ? { what: leave.rule.what, tables: [...leave.out.counts].map(([name, rows]) => ({ name, rows })) } : null;
  return { version: s.version, tables: done, audited, left };
}

/**
 * Every order goes under its public number: a new SQLite order's stored key (src/store/sqlite/
 * order-keys.ts) is reached from its number only with the source's own key, which no destination
 * has. A SQLite destination looks such numbers up as they are (sqlite-target.ts, finish).
 */
function publicNumbers(t: TableShape, rows: Row[]): Row[] {
  const i = t.columns.findIndex((c) => c.name === "trade_no");
  if (i < 0) return rows;
  return rows.map((r) => (typeof r[i] === "string" && r[i] !== publicTradeNo(r[i] as string) ? r.map((v, k) => (k === i ? publicTradeNo(v as string) : v)) : r));
}

/** After the commit, as a later reader sees it: every table holds what was copied into it. */
async function verify(target: CopyTarget, copied: CopyResult): Promise<void> {
  for (const t of copied.tables) {
    const expected = t.rows + (copied.audited && t.name === AUDIT_TABLE ? 1 : 0);
    const found = await target.count(t.name);
    if (found !== expected) throw new CopyError(`verification failed: table ${t.name} holds ${found} rows in ${target.where}, ${expected} expected`);
  }
}
