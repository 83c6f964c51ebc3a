// bun bench/vmq-heart.ts CHECKOUT...: CPU time of one V免签 heartbeat (/appHeart, signed as the
// app signs it) through app.handle, per checkout, in ROUNDS rounds with the checkouts alternated.
// Each checkout runs in a child process of its own (its own module graph and database, built by
// its test helpers), with CLIENTS more V免签 clients beside the one that signs: the signature is
// checked against every V免签 client's key. The checkouts need node_modules (a symlink will do).
import { resolve } from "node:path";
import { BUN } from "./lib.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const N = Number(process.env.BENCH_HEARTS ?? 4000);

if (process.env.VMQ_HEART_CHILD) {
  const root = process.env.VMQ_HEART_CHILD;
  const { harness } = await import(`${root}/test/helpers.ts`);
  const { seedVmq, appHeartUrl, get } = await import(`${root}/test/vmq/clients.ts`);
  const h = harness();
  await seedVmq(h);
  for (let i = 0; i < Number(process.env.CLIENTS ?? 20); i++) {
    await h.gw.store.addKeyedClient({ kind: "vmq", pid: 1001, name: `p${i}`, key: `k${i}-0123456789abcdef0123456789`, accountIds: [], now: h.clock.now() });
  }
  const heart = async () => {
    h.clock.advance(0.001); // each heartbeat's t is newer than the last
    const r = await get(h, appHeartUrl(String(h.clock.nowMs())));
    if (r.body?.code !== 1) throw new Error(`heartbeat refused: ${JSON.stringify(r.body)}`);
  };
  for (let i = 0; i < 500; i++) await heart();
  const before = process.cpuUsage();
  for (let i = 0; i < N; i++) await heart();
  const used = process.cpuUsage(before);
  h.close();
  console.log(((used.user + used.system) / N).toFixed(1));
  process.exit(0);
}

const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) roots.push(resolve(import.meta.dir, ".."));
const results = new Map<string, number[]>(roots.map((r) => [r, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? roots : [...roots].reverse();
  for (const root of order) {
    const p = Bun.spawnSync([BUN, import.meta.path], { env: { ...process.env, VMQ_HEART_CHILD: root }, stdout: "pipe", stderr: "inherit" });
    if (p.exitCode !== 0) throw new Error(`${root}: the heartbeat run failed`);
    const us = Number(p.stdout.toString().trim());
    results.get(root)!.push(us);
    console.log(`round ${round + 1}: ${root} ${us} µs of CPU per heartbeat`);
  }
}
for (const [root, us] of results) {
  const sorted = [...us].sort((a, b) => a - b);
  console.log(`${root}: median ${sorted[Math.floor(sorted.length / 2)]} µs per heartbeat (${us.join(", ")})`);
}
