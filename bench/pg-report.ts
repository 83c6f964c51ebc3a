// The printed result of `npm run bench:pg`: one row per arm and round (each figure beside the
// bare-Elysia baseline measured just before it), then the medians per arm, as Markdown.
import { cpus } from "node:os";
import type { LoadResult } from "./lib.ts";
import { ARM_LABEL, type ArmName } from "./pg-arms.ts";
import type { NotifyResult } from "./notify.ts";
import { median } from "./report.ts";
import type { StatementCost } from "./pg-cost.ts";

/** Per created order, around the create run (pg.ts costed); NaN where it does not apply (SQLite). */
export interface CreateCost {
  /** the xpay serve processes, all instances, user + system */
  appMs: number;
  pgMs: number;
  /** the load generator (autocannon in the bench process) */
  clientMs: number;
  walBytes: number;
  statement: StatementCost | null;
  /** the warm-up before the run (pg.ts warmUntilCompiled), s, and the instances' JIT threads' CPU in the run, ms (not per order) */
  warmupS: number;
  jitMs: number;
}

export interface ArmRun {
  arm: ArmName;
  round: number;
  create: LoadResult;
  createBaseline: LoadResult;
  createCost: CreateCost;
  notify: NotifyResult;
  notifyBaseline: LoadResult;
  /** the reports' warm-up (BENCH_WARMUP), s, and the instances' JIT threads' CPU during the reports, ms */
  notifyWarm: { warmupS: number; jitMs: number };
  slotsHeldTwice: number;
  /** each instance's resident set after the run, MiB */
  rss: number[];
}

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : "-");
const pct = (a: number, b: number) => `${fmt((100 * a) / b, 1)}%`;

export function render(o: { runs: ArmRun[]; settings: string; head: string; load: string[]; seconds: number }): string {
  const rows = o.runs.map((r) => {
    const c = r.create;
    const n = r.notify;
    return `| ${r.round} | ${ARM_LABEL[r.arm]} | ${fmt(c.rps)} | ${pct(c.rps, r.createBaseline.rps)} | ${fmt(c.p99, 1)} | ${c.ok} / ${c.failed} / ${c.errors} | ${fmt(n.perSecond)} | ${pct(n.perSecond, r.notifyBaseline.rps)} | ${fmt(n.p50, 1)} | ${fmt(n.p99, 1)} | ${fmt(n.reportP99, 1)} | ${n.delivered}/${n.matched} | ${n.failed} | ${n.repeats} | ${r.slotsHeldTwice} | ${r.notifyWarm.warmupS} s / ${fmt(r.notifyWarm.jitMs)} ms | ${fmt(c.steal, 1)}% / ${fmt(n.steal, 1)}% |`;
  });
  const arms = [...new Set(o.runs.map((r) => r.arm))];
  const med = arms.map((a) => {
    const rs = o.runs.filter((r) => r.arm === a);
    const m = (f: (r: ArmRun) => number) => median(rs.map(f));
    return `| ${ARM_LABEL[a]} | ${rs.length} | ${fmt(m((r) => r.create.rps))} | ${fmt(100 * m((r) => r.create.rps / r.createBaseline.rps), 1)}% | ${fmt(m((r) => r.create.p99), 1)} | ${fmt(m((r) => r.notify.perSecond))} | ${fmt(100 * m((r) => r.notify.perSecond / r.notifyBaseline.rps), 1)}% | ${fmt(m((r) => r.notify.p50), 1)} | ${fmt(m((r) => r.notify.p99), 1)} | ${fmt(Math.max(...rs.flatMap((r) => r.rss)), 1)} |`;
  });
  const costs = o.runs.map((r) => {
    const c = r.createCost;
    const st = c.statement ? `${c.statement.calls} / ${fmt(c.statement.meanMs, 3)} / ${c.statement.rows}` : "-";
    return `| ${r.round} | ${ARM_LABEL[r.arm]} | ${fmt(r.create.rps)} | ${fmt(c.appMs, 3)} | ${fmt(c.pgMs, 3)} | ${fmt(c.clientMs, 3)} | ${fmt(c.walBytes)} | ${st} | ${c.warmupS} s / ${fmt(c.jitMs)} ms | ${fmt(r.create.steal, 1)}% |`;
  });
  const bad = o.runs.filter((r) => r.create.failed || r.create.errors || r.notify.failed || r.notify.delivered < r.notify.matched || r.slotsHeldTwice);
  return [
    `xpay bench:pg ${new Date().toISOString()}: ${cpus().length} x ${cpus()[0]?.model ?? "?"}, Bun ${Bun.version}, ${o.settings}; server(s), PostgreSQL and client share the cores`,
    `xpay served from ${o.head}; load average at start / end: ${o.load.join(" / ")}`,
    "",
    "| round | setup | create req/s | vs baseline | create p99 ms | ok / failed / errors | notifications/s | vs baseline | notify p50 ms | notify p99 ms | report answer p99 ms | delivered/matched | reports not matched | repeated notifications | slots held twice | reports' warm-up / JIT CPU in the run | CPU stolen (create / notify) |",
    "|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|",
    ...rows,
    "",
    "| setup (median of rounds) | rounds | create req/s | vs baseline | create p99 ms | notifications/s | vs baseline | notify p50 ms | notify p99 ms | peak RSS per instance MiB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...med,
    "",
    "What a create cost (CPU ms per created order: the xpay serve processes summed, PostgreSQL's server, the load generator; WAL bytes per created order; the create statement in pg_stat_statements; the warm-up before the run and the instances' JIT compiler threads' CPU during it, ms in all):",
    "",
    "| round | setup | create req/s | xpay CPU ms | PostgreSQL CPU ms | load generator CPU ms | WAL bytes | create statement: calls / mean ms / rows | warm-up / JIT CPU in the run | CPU stolen |",
    "|---:|---|---:|---:|---:|---:|---:|---|---|---:|",
    ...costs,
    "",
    bad.length ? `CHECK FAILED in ${bad.map((r) => `round ${r.round} ${ARM_LABEL[r.arm]}`).join(", ")}: failed answers, lost notifications or a slot held twice` : "checks: no failed answer, every matched report's notification delivered, no slot held twice",
    `whole run ${fmt(o.seconds)} s`,
  ].join("\n");
}
