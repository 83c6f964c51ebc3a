// argon2id is meant to be expensive: each hash or check of an operator password takes ~64 MiB
// and ~300 ms here. The login throttle bounds each address, not a crowd of them; a limit on
// how many run at once bounds the memory a flood of logins from many addresses can take. The
// others wait their turn (in order), so a flood slows logins down and never the gateway.
export function concurrencyLimit(slots: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(work: () => Promise<T>): Promise<T> {
    if (running >= slots) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next(); // the slot passes straight to the next waiter
      else running--;
    }
  };
}

/** Password hashes and checks, console and CLI alike. */
export const passwordSlots = concurrencyLimit(2);
