// Issues 17 and 22 from the terminal: `xpay admin add/passwd/list/remove/sessions/revoke` and
// `xpay audit list`, the real CLI on one database. Passwords come from --password-stdin or a
// prompt without echo (a real terminal, through script(1)), never from argv; stdin that is not a
// terminal without --password-stdin is refused. Every change is audited as `cli`.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { openGateway } from "../../src/server/bootstrap.ts";
import { startSession } from "../../src/core/admin/sessions.ts";
import { tempDir } from "../helpers.ts";

setDefaultTimeout(60_000); // every step is a real CLI process on a shared, busy machine
const dir = tempDir("xpay-admin-cli-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MAIN = resolve("src/cli/main.ts");
const env = { ...process.env, NO_COLOR: "1" };
let n = 0;

function cli(db: string) {
  const run = (args: string[], stdin?: string) => {
    const p = Bun.spawnSync([process.execPath, MAIN, "--db", db, ...args], { env, stdin: stdin === undefined ? "ignore" : Buffer.from(stdin) });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  const json = (args: string[]) => {
    const r = run([...args, "--json"]);
    expect(r.err).toBe("");
    return JSON.parse(r.out);
  };
  return { run, json };
}

function freshDb(): string {
  const db = join(dir, `a${n++}.db`);
  expect(Bun.spawnSync([process.execPath, MAIN, "--db", db, "migrate"], { env }).exitCode).toBe(0);
  return db;
}

/** Opens console sessions for `name` directly (as a browser login would). */
async function sessionsFor(db: string, name: string, count: number) {
  const gw = openGateway({ db });
  const op = (await gw.store.admin.findOperator(name))!;
  for (let i = 0; i < count; i++) await startSession(gw, op, { ip: `203.0.113.${i + 1}`, userAgent: `browser ${i}` });
  gw.store.close();
}

describe("xpay admin", () => {
  test("add with --password-stdin, list, and the audit row", () => {
    const db = freshDb();
    const { run, json } = cli(db);
    const r = run(["admin", "add", "--user", "alice", "--password-stdin"], "correct horse battery\n");
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(r.out).toContain("operator added  alice");
    expect(json(["admin", "list"])).toEqual([{ name: "alice", created: expect.any(String), password_changed: expect.any(String), last_login: "never" }]);
    expect(json(["audit", "list"]).map((e: { actor: string; action: string; target: string }) => [e.actor, e.action, e.target])).toEqual([["cli", "operator.add", "operator:alice"]]);
  });

  test("refusals: no terminal and no --password-stdin, a weak password, a bad or taken name; nothing added", () => {
    const db = freshDb();
    const { run, json } = cli(db);
    run(["admin", "add", "--user", "alice", "--password-stdin"], "correct horse battery\n");
    const cases: [string[], string | undefined, string][] = [
      [["admin", "add", "--user", "bob"], undefined, "stdin is not a terminal: pipe the password with --password-stdin (it is never taken from the command line)"],
      [["admin", "add", "--user", "bob", "--password-stdin"], "short\n", "the password must have at least 10 characters"],
      [["admin", "add", "--user", "bob", "--password-stdin"], "\n", "--password-stdin: nothing on stdin; pipe the password, e.g. printf '%s\\n' \"$PASSWORD\" | xpay admin add --user NAME --password-stdin"],
      [["admin", "add", "--user", "bob", "--password-stdin"], "line one is long\nline two\n", "--password-stdin: the password must be one line"],
      [["admin", "add", "--user", "bad name", "--password-stdin"], "correct horse battery\n", "user names are 1-32 characters: letters, digits and . _ @ -, starting with a letter or digit"],
      [["admin", "add", "--user", "cli", "--password-stdin"], "correct horse battery\n", "that name is reserved for the audit log (cli, system, anonymous); choose another"],
      [["admin", "add", "--user", "ALICE", "--password-stdin"], "correct horse battery\n", "an operator named ALICE exists already"],
      [["admin", "add", "--password", "x"], undefined, "unknown option '--password'"],
    ];
    for (const [args, stdin, message] of cases) {
      const r = run(args, stdin);
      expect({ args, code: r.code, err: r.err.replace(/\n+$/, "").replace(/^error: /, "") }).toEqual({ args, code: 1, err: message });
    }
    expect(json(["admin", "list"]).map((o: { name: string }) => o.name)).toEqual(["alice"]);
    expect(json(["audit", "list"]).length).toBe(1);
  });

  test("add at a terminal: typed twice, never echoed", async () => {
    const db = freshDb();
    const p = Bun.spawn(["script", "-qec", `${process.execPath} ${MAIN} --db ${db} admin add --user bob`, "/dev/null"], { stdin: "pipe", stdout: "pipe", stderr: "pipe", env });
    let out = "";
    const reading = (async () => {
      const reader = p.stdout.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) out += new TextDecoder().decode(r.value);
    })();
    const waitFor = async (text: string) => {
      for (let i = 0; i < 400 && !out.includes(text); i++) await Bun.sleep(25);
    };
    await waitFor("New password for bob: ");
    p.stdin.write("typed secret 123\r");
    p.stdin.flush();
    await waitFor("Repeat it: ");
    p.stdin.write("typed secret 123\r");
    p.stdin.flush();
    await p.exited;
    await reading;
    expect(p.exitCode).toBe(0);
    expect(out).toContain("operator added  bob");
    expect(out).not.toContain("typed secret");
    expect(cli(db).json(["admin", "list"]).map((o: { name: string }) => o.name)).toEqual(["bob"]);
  }, 20_000);

  test("passwd: the new password, every session of the operator logged out; remove: the operator and its sessions", async () => {
    const db = freshDb();
    const { run, json } = cli(db);
    run(["admin", "add", "--user", "alice", "--password-stdin"], "correct horse battery\n");
    run(["admin", "add", "--user", "bob", "--password-stdin"], "correct horse battery\n");
    await sessionsFor(db, "alice", 2);
    await sessionsFor(db, "bob", 1);
    expect(run(["admin", "passwd", "--user", "alice", "--password-stdin"], "aaaa\n")).toMatchObject({ code: 1, err: "error: the password must have at least 10 characters\n" });
    expect(json(["admin", "sessions"]).length).toBe(3);
    const r = run(["admin", "passwd", "--user", "Alice", "--password-stdin"], "another good secret\n");
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(r.out).toContain("2 session(s) logged out");
    expect(json(["admin", "sessions"]).map((s: { user: string }) => s.user)).toEqual(["bob"]);
    const gw = openGateway({ db });
    expect(await Bun.password.verify("another good secret", (await gw.store.admin.findOperator("alice"))!.passwordHash)).toBe(true);
    gw.store.close();
    expect(run(["admin", "passwd", "--user", "nobody", "--password-stdin"], "another good secret\n").err).toBe("error: no operator named nobody (see xpay admin list)\n");
    expect(run(["admin", "remove", "--user", "bob"]).out).toContain("operator removed  bob");
    expect(json(["admin", "sessions"])).toEqual([]);
    const last = run(["admin", "remove", "--user", "alice"]);
    expect(last.out).toContain("no operator is left: the next `xpay serve` prints a one-time setup link");
    expect(run(["admin", "remove", "--user", "alice"]).err).toBe("error: no operator named alice (see xpay admin list)\n");
    expect(json(["audit", "list", "--user", "cli"]).map((e: { action: string }) => e.action)).toEqual(["operator.remove", "operator.remove", "operator.password", "operator.add", "operator.add"]);
  });

  test("sessions and revoke: one session, or every session of one operator", async () => {
    const db = freshDb();
    const { run, json } = cli(db);
    run(["admin", "add", "--user", "alice", "--password-stdin"], "correct horse battery\n");
    run(["admin", "add", "--user", "bob", "--password-stdin"], "correct horse battery\n");
    await sessionsFor(db, "alice", 3);
    await sessionsFor(db, "bob", 1);
    const all = json(["admin", "sessions"]);
    expect(all.length).toBe(4);
    expect(all[0]).toMatchObject({ id: expect.any(Number), user: expect.any(String), ip: expect.stringMatching(/^203\.0\.113\./), user_agent: expect.stringMatching(/^browser /) });
    const alice = json(["admin", "sessions", "--user", "alice"]);
    expect(alice.length).toBe(3);
    expect(run(["admin", "revoke", "--session", String(alice[0].id)]).out).toContain(`session revoked  ${alice[0].id}`);
    expect(run(["admin", "revoke", "--session", String(alice[0].id)]).err).toBe(`error: no session ${alice[0].id} (see xpay admin sessions)\n`);
    expect(run(["admin", "revoke", "--user", "alice", "--all"]).out).toContain("sessions revoked  alice  2");
    expect(json(["admin", "sessions"]).map((s: { user: string }) => s.user)).toEqual(["bob"]);
    for (const args of [["admin", "revoke"], ["admin", "revoke", "--user", "bob"], ["admin", "revoke", "--session", "1", "--user", "bob", "--all"]]) {
      expect(run(args)).toMatchObject({ code: 1, err: "error: give either --session ID, or --user NAME --all\n" });
    }
    expect(json(["admin", "sessions"]).length).toBe(1);
    expect(json(["audit", "list", "--action", "session.revoke"]).length).toBe(1);
    expect(json(["audit", "list", "--action", "session.revoke_all"])[0]).toMatchObject({ actor: "cli", target: "operator:alice", after: { revoked: 2 } });
  });

  test("list, sessions and audit list only read: they work on a read-only database file", () => {
    const db = freshDb();
    const { run } = cli(db);
    run(["admin", "add", "--user", "alice", "--password-stdin"], "correct horse battery\n");
    chmodSync(db, 0o400);
    try {
      for (const args of [["admin", "list"], ["admin", "sessions"], ["audit", "list"]]) expect({ args, ...run(args) }).toMatchObject({ args, code: 0, err: "" });
    } finally {
      chmodSync(db, 0o600);
    }
  });
});

describe("xpay audit list", () => {
  test("--limit, --user, --action; newest first; a limit out of range is refused", () => {
    const db = freshDb();
    const { run, json } = cli(db);
    for (const name of ["alice", "bob", "carol"]) run(["admin", "add", "--user", name, "--password-stdin"], "correct horse battery\n");
    run(["admin", "remove", "--user", "carol"]);
    expect(json(["audit", "list", "--limit", "2"]).map((e: { action: string; target: string }) => `${e.action} ${e.target}`)).toEqual(["operator.remove operator:carol", "operator.add operator:carol"]);
    expect(json(["audit", "list", "--action", "operator.add"]).length).toBe(3);
    expect(json(["audit", "list", "--user", "alice"])).toEqual([]);
    const table = run(["audit", "list"]).out;
    expect(table.split("\n")[0]).toMatch(/^id\s+time\s+actor\s+action\s+target\s+ip\s+change\s+reason/);
    expect(run(["audit", "list", "--limit", "201"]).err).toBe("error: --limit must be at most 200\n");
    expect(run(["audit", "list", "--limit", "0"]).err).toBe("error: --limit must be a whole number >= 1\n");
  });
});
