// The in-process before/after benches (bench/checkout-cpu.ts, bench/report-cpu.ts): two checkouts'
// server code loaded in one process, three arms (old, new, and new again on a database of its own:
// the noise floor of the ratio) rotated for ROUNDS rounds, so each arm takes every place in a round
// equally often. Each arm measures one batch at a time and answers µs of CPU per unit.
import { join, resolve } from "node:path";

/** The two checkouts named on the command line; exits with the usage line without them. */
export function twoCheckouts(usage: string): { oldRoot: string; newRoot: string } {
  const [oldRoot, newRoot] = process.argv.slice(2).map((p) => resolve(p));
  if (!oldRoot || !newRoot) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return { oldRoot, newRoot };
}

/** A checkout's server code, and `db` seeded by its own bench/seed.ts; `load` imports another of its modules. */
export async function seededCheckout(root: string, db: string) {
  const load = (path: string) => import(join(root, path));
  const [{ buildApp }, { openGateway }, { seed }] = await Promise.all([load("src/server/app.ts"), load("src/server/bootstrap.ts"), load("bench/seed.ts")]);
  await seed(db);
  return { buildApp, openGateway, load };
}

export interface Arm {
  /** µs of CPU per unit over one batch. */
  batch(): Promise<number>;
}

/**
 * One warm-up batch per arm, then ROUNDS rounds, the arms' order turned by one each round; the
 * medians of each arm, the median ratio new / old and the noise floor (new again / new), as a line.
 * `round`: called after each round with its figures.
 */
export async function rotate(arms: { old: Arm; new: Arm; "new again": Arm }, rounds: number, round?: (r: number, last: Record<string, number>) => void): Promise<string> {
  const names = Object.keys(arms) as (keyof typeof arms)[];
  for (const n of names) await arms[n].batch(); // warm-up
  const cpu = { old: [] as number[], new: [] as number[], "new again": [] as number[] };
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      cpu[name].push(await arms[name].batch());
    }
    round?.(r + 1, Object.fromEntries(names.map((n) => [n, cpu[n].at(-1)!])));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = (a: number[], b: number[]) => median(a.map((x, i) => x / b[i]!));
  return (
    `old ${median(cpu.old).toFixed(1)} µs, new ${median(cpu.new).toFixed(1)} µs, new again ${median(cpu["new again"]).toFixed(1)} µs; ` +
    `median ratio new / old ${ratio(cpu.new, cpu.old).toFixed(3)}, noise floor (new again / new) ${ratio(cpu["new again"], cpu.new).toFixed(3)}`
  );
}
