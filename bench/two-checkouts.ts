// The in-process before/after benches (bench/checkout-cpu.ts, bench/report-cpu.ts): two checkouts'
// server code loaded in one process, four arms (each checkout on two databases of its own, the
// second its noise floor) rotated for ROUNDS rounds, so each arm takes every place in a round
// equally often and each checkout's code runs as often. Each arm measures one batch at a time and
// answers µs of CPU per unit.
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

/** Each checkout on two databases of its own: both checkouts' code runs as often (see rotate). */
export type FourArms<A extends Arm> = { old: A; "old again": A; new: A; "new again": A };

/** The four arms made by `make(name, root)`, one database each. */
export async function fourArms<A extends Arm>(oldRoot: string, newRoot: string, make: (name: string, root: string) => Promise<A>): Promise<FourArms<A>> {
  return { old: await make("old", oldRoot), "old again": await make("old-again", oldRoot), new: await make("new", newRoot), "new again": await make("new-again", newRoot) };
}

/**
 * One warm-up batch per arm, then ROUNDS rounds, the arms' order turned by one each round; each
 * checkout's median (over its two arms), the median ratio new / old (each round's two new batches
 * against its two old ones) and the noise floors (again / first, each checkout), as a line.
 * Each checkout runs on two arms: with the new checkout alone on two (as until 2026-12-03), its code
 * ran twice as often as the old one's in the same process, and the same change measured old -> new
 * and new -> old gave 0.915-0.917 and, turned around, 0.979: a bias of about 5 % for whichever
 * checkout had two arms (docs/benchmarks.md, 2026-12-03 19:39). `round`: called after each round.
 */
export async function rotate(arms: FourArms<Arm>, rounds: number, round?: (r: number, last: Record<string, number>) => void): Promise<string> {
  const names = Object.keys(arms) as (keyof FourArms<Arm>)[];
  for (const n of names) await arms[n].batch(); // warm-up
  const cpu: Record<keyof FourArms<Arm>, number[]> = { old: [], "old again": [], new: [], "new again": [] };
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      cpu[name].push(await arms[name].batch());
    }
    round?.(r + 1, Object.fromEntries(names.map((n) => [n, cpu[n].at(-1)!])));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = (a: number[], b: number[]) => median(a.map((x, i) => x / b[i]!));
  const both = (a: number[], b: number[]) => a.map((x, i) => x + b[i]!);
  return (
    `old ${median([...cpu.old, ...cpu["old again"]]).toFixed(1)} µs, new ${median([...cpu.new, ...cpu["new again"]]).toFixed(1)} µs; ` +
    `median ratio new / old ${ratio(both(cpu.new, cpu["new again"]), both(cpu.old, cpu["old again"])).toFixed(3)}, ` +
    `noise floor (again / first) ${ratio(cpu["old again"], cpu.old).toFixed(3)} old, ${ratio(cpu["new again"], cpu.new).toFixed(3)} new`
  );
}
