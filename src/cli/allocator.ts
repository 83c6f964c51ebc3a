// `xpay serve` runs with Bun's allocator (mimalloc 3) told not to purge the holes of its pages:
// MIMALLOC_PURGE_HOLES=0. With it on, every 100 ms mimalloc returned the free ranges inside pages
// still in use, which the next requests faulted back in: each return a madvise whose TLB flush
// interrupts both cores, and its own thread's time. Whole free pages are still returned (after
// MIMALLOC_PURGE_DELAY, 100 ms). Measured 2026-12-02 (docs/benchmarks.md): less server CPU a
// create, a lower p99, faster console exports, a higher RSS after a burst
// (docs/decisions/operations.md, "The allocator's holes").
//
// mimalloc reads its variables once, as the process starts, so serve starts itself again with it
// (execve: the same process id, nothing left behind), before the CLI is loaded (main.ts). An
// operator's own value, any value, is kept as it is.
const VARIABLE = "MIMALLOC_PURGE_HOLES";

/**
 * The command the arguments name: the first that is not an option nor the value of the one global
 * option that takes a separate value (`--db <path>`, program.ts).
 */
export function commandOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--db") i++;
    else if (!args[i]!.startsWith("-")) return args[i];
  }
  return undefined;
}

/** The program and arguments that start this process again as it was started. */
export function restartCommand(): string[] {
  // A compiled executable is its own program (its argv[1] is the bundle's virtual path); a script
  // runs under bun with bun's own flags first.
  return Bun.main.startsWith("/$bunfs/") ? [process.execPath, ...process.argv.slice(2)] : [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
}

/** Restarts this process as it was started, with the allocator's setting, when `argv` (process.argv's shape) runs serve and nothing set it. */
export function restartServeWithAllocator(argv: readonly string[]): void {
  if (commandOf(argv.slice(2)) !== "serve" || process.env[VARIABLE] !== undefined || process.platform === "win32") return;
  const command = restartCommand();
  // Bun warns that execve is experimental; the warning is written after the call returns, so only
  // when the restart failed (below), where an operator would read it as the problem. Silenced for
  // the one call.
  const warn = process.emitWarning;
  process.emitWarning = () => {};
  try {
    process.execve?.(command[0]!, command, { ...process.env, [VARIABLE]: "0" });
  } catch {
    // The program cannot be started again as it was (an executable run under an emulator such as
    // qemu-user, with no binfmt entry for its own format: ENOEXEC): serve goes on here, unchanged.
  } finally {
    process.emitWarning = warn;
  }
}
