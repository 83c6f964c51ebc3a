import { readFileSync, readdirSync } from "node:fs";
import { createBodies, createOk } from "./native.ts";
import { load, pool } from "./lib.ts";
import { startRig } from "./rig.ts";
function threads(pid: number): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8");
      const name = t === String(pid) ? "main" : s.slice(s.indexOf("(") + 1, s.lastIndexOf(")"));
      const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
      m.set(name, (m.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    } catch {}
  }
  return m;
}
const rig = await startRig("xpay-sg-");
const pid = rig.server.pid;
try {
  for (let r = 0; r < 4; r++) {
    const bodies = pool(createBodies(200_000, `S${r}-${Date.now()}-`, rig.receiver.url).bodies);
    const spec = { name: "create", url: rig.gateway, path: "/xpay/order/create", body: () => bodies.next(), ok: createOk };
    await load({ ...spec, duration: 2 });
    const before = threads(pid);
    const x = await load(spec);
    const after = threads(pid);
    const n = x.ok ?? x.requests;
    const parts = [...after].map(([k, v]) => [k, ((v - (before.get(k) ?? 0)) / n) * 1000] as const).filter(([, v]) => v > 0.5).sort((a, b) => b[1] - a[1]);
    console.log(`round ${r + 1}: ${Math.round(x.rps)}/s p99 ${x.p99} | ` + parts.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ") + " µs/create");
  }
} finally { await rig.stop(); }
