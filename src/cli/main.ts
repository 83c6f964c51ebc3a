#!/usr/bin/env bun
// The xpay command line's entry (`bun src/cli/main.ts`, bin/xpay, the executable). The program
// itself (program.ts, every command) is loaded only after serve has restarted itself with its
// allocator setting (allocator.ts): a restart before that load costs the start-up a few tens of
// milliseconds, one after it the whole CLI's load again (the executable is built with --splitting,
// so program.ts is a chunk of its own there too).
import { restartServeWithAllocator } from "./allocator.ts";

/** Runs the command `argv` names (process.argv's shape), in this process. */
export async function main(argv: string[]): Promise<void> {
  const program = await import("./program.ts");
  await program.main(argv);
}

/** The CLI as its own process runs it: serve first restarts with the allocator's setting. */
export async function run(argv: string[]): Promise<void> {
  restartServeWithAllocator(argv);
  await main(argv);
}

if (import.meta.main) await run(process.argv);
