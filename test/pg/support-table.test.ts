// The commands refused on PostgreSQL name real commands (a typo would let one through unrefused),
// and every command that reaches the operator console's audit log or a sub-port is in the table.
import { expect, test } from "bun:test";
import { NOT_ON_POSTGRES, refuseOnPostgres } from "../../src/cli/postgres-support.ts";
import { buildProgram } from "../../src/cli/main.ts";
import type { Command } from "commander";

function commands(c: Command, prefix: string[] = []): string[] {
  return c.commands.flatMap((s) => (s.commands.length ? commands(s, [...prefix, s.name()]) : [[...prefix, s.name()].join(" ")]));
}

test("every refused command exists", () => {
  const all = new Set(commands(buildProgram().program));
  expect(Object.keys(NOT_ON_POSTGRES).filter((c) => !all.has(c))).toEqual([]);
});

test("what runs on PostgreSQL: the core's own commands, operators and the audit log", () => {
  const runs = commands(buildProgram().program).filter((c) => !(c in NOT_ON_POSTGRES)).sort();
  expect(runs).toEqual([
    "admin add", "admin list", "admin passwd", "admin remove", "admin revoke", "admin sessions", "audit list",
    "backup", "channel list", "client list", "merchant list", "merchant show", "migrate", "notify list", "notify show", "order inspect",
    "settings get", "settings list", "simulate-pay",
  ]);
});

test("only a postgres:// or postgresql:// database is refused", () => {
  expect(() => refuseOnPostgres("merchant add", "postgres://u@h/db")).toThrow("not supported on PostgreSQL yet: xpay merchant add");
  expect(() => refuseOnPostgres("merchant add", "POSTGRESQL://u@h/db")).toThrow("not supported on PostgreSQL yet");
  expect(() => refuseOnPostgres("merchant add", "./postgres.db")).not.toThrow();
  expect(() => refuseOnPostgres("merchant list", "postgres://u@h/db")).not.toThrow();
  expect(() => refuseOnPostgres("merchant add", undefined)).not.toThrow();
});
