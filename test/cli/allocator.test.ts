// Which command line serve's restart reads as serve (src/cli/allocator.ts); the restart itself, in
// the process that was started, is checked by signals.test.ts and scripts/smoke-binary.ts.
import { describe, expect, test } from "bun:test";
import { commandOf } from "../../src/cli/allocator.ts";

describe("the command the arguments name", () => {
  test.each([
    [["serve"], "serve"],
    [["serve", "--port", "0"], "serve"],
    [["--db", "/tmp/x.db", "serve"], "serve"],
    [["--db=/tmp/x.db", "serve"], "serve"],
    [["--db", "serve"], undefined], // a database file named serve, and no command
    [["order", "list"], "order"],
    [["merchant", "add", "--name", "serve"], "merchant"],
    [["-v"], undefined],
    [[], undefined],
  ] as const)("%j: %s", (args, command) => {
    expect(commandOf(args)).toBe(command);
  });
});
