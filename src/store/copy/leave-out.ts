// Rows a copy leaves behind (`xpay db copy --drop-test-data`). A rule names the rows that are out for
// what they hold themselves (a setting, a merchant's rows); every row that references a left-out row
// through a foreign key goes with it, so the copy never holds a row pointing at nothing (PostgreSQL
// would refuse it, SQLite would keep it dangling). Tables are written parents first (plan.ts), so a
// parent's left-out keys are all known before the first row of a child is read.
import type { Row, TableShape, Value } from "./types.ts";

/** What a source holds that must stay behind; rules come from the core (core/dev/test-data.ts). */
export interface LeaveOutRule {
  /** In words, for the refusal and the copy's summary. */
  what: string[];
  /** True for a row that is out by its own values; `get` answers undefined for a column the table lacks. */
  out(table: string, get: (column: string) => unknown): boolean;
}

/** Test data found in a copy's source while it was told to keep it: the copy is refused. */
export class TestDataError extends Error {
  constructor(readonly where: string, readonly what: string[]) {
    super(`source ${where} holds test data (${what.join(", ")})`);
  }
}

const slot = (table: string, columns: string[]) => `${table}\0${columns.join("\0")}`;

/** A key of referenced values; null when any is NULL (such a reference points at nothing). */
function keyOf(values: Value[]): string | null {
  if (values.some((v) => v === null)) return null;
  return values.map((v) => (v instanceof Uint8Array ? `b${Buffer.from(v).toString("hex")}` : `${typeof v}:${String(v)}`)).join("\0");
}

export class LeaveOut {
  /** Per referenced (table, columns): the keys of its rows that were left out. */
  private readonly gone = new Map<string, Set<string>>();
  /** Rows left out per table. */
  readonly counts = new Map<string, number>();

  constructor(private readonly rule: LeaveOutRule, tables: TableShape[]) {
    for (const t of tables) for (const r of t.refs) this.gone.set(slot(r.parent, r.parentColumns), new Set());
  }

  /** The rows of `t` the copy writes; the keys of the others are remembered for their children. */
  keep(t: TableShape, rows: Row[]): Row[] {
    const at = new Map(t.columns.map((c, i) => [c.name, i]));
    const value = (row: Row, c: string) => row[at.get(c)!] ?? null;
    const referenced = [...this.gone.keys()].filter((k) => k.startsWith(`${t.name}\0`)).map((k) => ({ set: this.gone.get(k)!, columns: k.split("\0").slice(1) }));
    const kept: Row[] = [];
    for (const row of rows) {
      const out =
        this.rule.out(t.name, (c) => (at.has(c) ? value(row, c) : undefined)) ||
        t.refs.some((r) => {
          const k = keyOf(r.columns.map((c) => value(row, c)));
          return k !== null && this.gone.get(slot(r.parent, r.parentColumns))!.has(k);
        });
      if (!out) {
        kept.push(row);
        continue;
      }
      this.counts.set(t.name, (this.counts.get(t.name) ?? 0) + 1);
      for (const r of referenced) {
        const k = keyOf(r.columns.map((c) => value(row, c)));
        if (k !== null) r.set.add(k);
      }
    }
    return kept;
  }
}
