// The income rollup's fold while `xpay serve` runs on PostgreSQL (migration 039): once a second,
// one call of xpay_rollup_fold() moves the pending rows every write of orders appended into the
// hour and day rows, in a short transaction of its own. Readings add the pending rows, so a fold
// that is late, or an instance that never folds, changes no figure; a fold keeps the pending rows
// few, so the readings stay cheap. With several instances, each calls it: the function's advisory
// lock lets one fold at a time, and the others return at once.
import type { SQL } from "bun";

export const FOLD_EVERY_MS = 1_000;

export interface FoldHooks {
  /** A fold reached the database (whether or not it found rows); /healthz shows the beat. */
  onBeat(): void;
  onError(message: string): void;
}

/** Folds the pending rows now: how many it folded, or -1 when another fold was running. */
export async function foldRollup(sql: SQL): Promise<number> {
  const [row] = (await sql`SELECT xpay_rollup_fold() AS n`) as { n: unknown }[];
  return Number(row!.n);
}

export function startRollupFold(db: () => Promise<SQL>, hooks: FoldHooks, everyMs = FOLD_EVERY_MS): { stop(): Promise<void> } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      await foldRollup(await db());
      hooks.onBeat();
    } catch (e) {
      hooks.onError(`the income rollup's fold failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const tick = () => {
    running = pass().finally(() => {
      if (!stopped) timer = setTimeout(tick, everyMs);
      timer?.unref?.(); // the server's listener keeps the process; a forgotten loop does not
    });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
