// GET or POST /api/report/{pid}/heart and /api/report/third-account/heart: the client is alive.
// Heartbeats are stored like every report (outcome accepted) and mark online only the accounts the
// client watches (core/clients/watch.ts), narrowed to channel_id when it names one.
import { because, reasonFields } from "../../core/reasons.ts";
import { presenceOf, reporterAccounts } from "../../core/clients/reporter.ts";
import type { Gateway } from "../../core/gateway.ts";
import { markClientSeen } from "../../core/settle-report.ts";
import { accountsFor } from "./accounts.ts";
import { accept, reply } from "./auth.ts";
import { ok, rawOf } from "./codec.ts";
import { HeartParams, ThirdHeartParams } from "./schemas.ts";

export async function clientHeart(gw: Gateway, request: Request, pidText: string): Promise<Response> {
  const a = await accept(gw, request, "heart", pidText, HeartParams);
  if (!a.ok) return a.response;
  const p = a.params;
  const reporter = a.reporter!;
  const channelId = p.channel_id ? Number(p.channel_id) : null;
  const accounts = (await reporterAccounts(gw, reporter)).filter((x) => channelId === null || x.id === channelId).map((x) => x.id);
  const presence = presenceOf(reporter, p.client_name!);
  await markClientSeen(gw, { ...presence, channelId, extData: p.ext_data ?? "" }, accounts);
  await gw.store.insertReport({
    kind: "heart", pid: reporter.watcher.pid, client: presence.name, raw: rawOf("heart", p), amount: null, payType: "", channelCode: "", dedupeKey: null,
    outcome: "accepted", ...reasonFields(because("online", { n: accounts.length })), tradeNo: null, createdAt: gw.clock.now(),
  });
  gw.metrics.report("heart", "accepted");
  return reply(ok({ accounts: accounts.length }));
}

export async function thirdAccountHeart(gw: Gateway, request: Request): Promise<Response> {
  const a = await accept(gw, request, "third-heart", null, ThirdHeartParams);
  if (!a.ok) return a.response;
  const p = a.params;
  // A watcher names only its own login here; accounts registered under that name or code go online.
  const accounts = await accountsFor(gw, null, { named: p.account });
  await markClientSeen(gw, { kind: "third-account", pid: 0, name: p.account!, extData: `type=${p.type}` }, accounts);
  await gw.store.insertReport({
    kind: "third-heart", pid: null, client: p.account!, raw: rawOf("third-heart", p), amount: null, payType: "", channelCode: "", dedupeKey: null,
    outcome: "accepted", ...reasonFields(because("online", { n: accounts.length })), tradeNo: null, createdAt: gw.clock.now(),
  });
  gw.metrics.report("third-heart", "accepted");
  return reply(ok({ accounts: accounts.length }));
}
