// argon2id is meant to be expensive: each hash or check of an operator password takes ~64 MiB
// and ~100-300 ms here. A limit on how many run at once bounds the memory and the CPU a flood of
// logins can take; a bound on how many strangers may wait bounds how long anyone waits. Two lanes:
// - `run`: operators the gateway already knows (a login from a known browser, a logged-in password
//   change, setup, the CLI) go ahead of every stranger waiting and are never refused: a flood of
//   wrong logins cannot delay them by more than the checks already running;
// - `tryRun`: everyone else waits behind, in order, or, when `maxWaiting` wait already, gets BUSY
//   at once (the console answers 429) instead of joining a queue that would make it wait seconds.
// The queue is per process on purpose: it guards this process's CPU and memory. What must hold
// across instances (the attempt counts) is in the store.

export const BUSY: unique symbol = Symbol("password queue full");

export interface Slots {
  /** Waits for a slot ahead of every tryRun waiting; never refused. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Waits behind everyone, or answers BUSY at once when `maxWaiting` strangers wait already. */
  tryRun<T>(work: () => Promise<T>): Promise<T | typeof BUSY>;
  /** Whether a tryRun now would be BUSY. */
  full(): boolean;
  /** Running now, and waiting in each lane (for tests and the log). */
  load(): { running: number; known: number; strangers: number };
}

export function concurrencyLimit(slots: number, maxWaiting = Number.POSITIVE_INFINITY): Slots {
  let running = 0;
  const known: (() => void)[] = [];
  const strangers: (() => void)[] = [];
  const full = () => running >= slots && strangers.length >= maxWaiting;
  async function exec<T>(lane: (() => void)[], work: () => Promise<T>): Promise<T> {
    if (running >= slots) await new Promise<void>((go) => lane.push(go));
    else running++;
    try {
      return await work();
    } finally {
      const next = known.shift() ?? strangers.shift();
      if (next) next(); // the slot passes straight to the next waiter, known ones first
      else running--;
    }
  }
  return {
    run: (work) => exec(known, work),
    tryRun: (work) => (full() ? Promise.resolve(BUSY) : exec(strangers, work)),
    full,
    load: () => ({ running, known: known.length, strangers: strangers.length }),
  };
}

/** Checks at once (two cores: one each), and strangers that may wait: about 0.5 s of checks here. */
export const PASSWORD_SLOTS = 2;
export const PASSWORD_QUEUE = 8;

/** Password hashes and checks, console and CLI alike. */
export const passwordSlots = concurrencyLimit(PASSWORD_SLOTS, PASSWORD_QUEUE);
