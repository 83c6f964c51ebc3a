// GET or POST /appHeart?t=&sign=md5(t + key): the monitor app is alive (every 30 s). It marks the
// client online for `client list` and its accounts (accounts.ts) online for
// require_online_client. The app's own clock must be within vmq_time_window, and newer
// than its last accepted heartbeat: the app speaks plain HTTP, and a captured heartbeat replayed
// later must not keep a dead phone "online" while payers are sent to its QR codes.
import { because, reasonFields } from "../../core/reasons.ts";
import type { Gateway } from "../../core/gateway.ts";
import { markClientSeen } from "../../core/settle-report.ts";
import { clientAccounts } from "./accounts.ts";
import { rawOf } from "../report/codec.ts";
import { missing, reply, VmqRoute } from "./auth.ts";
import { checkAppTime, heartText, Msg, ok } from "./codec.ts";
import { vmqWindow } from "./settings.ts";

export async function appHeart(gw: Gateway, request: Request): Promise<Response> {
  const route = new VmqRoute(gw, request, "vmq-heart");
  const p = await route.open();
  if (p instanceof Response) return p;
  const gone = missing(p, ["t", "sign"]);
  if (gone) return route.refuse({ msg: Msg.BadSign, reason: gone });
  const client = await route.client(heartText(p.t!), p.sign);
  if (!client) return route.refuse({ msg: Msg.BadSign, reason: "signature mismatch: sign = md5(t + key) with the key of a V免签 client" });
  if (!checkAppTime(p.t!, gw.clock.nowMs(), await vmqWindow(gw))) {
    return route.refuse({ client, msg: Msg.ClockWrong, reason: "t must be the phone's clock in milliseconds (13 digits) within the vmq_time_window setting" });
  }
  const now = gw.clock.now();
  if (!(await gw.store.acceptVmqHeart(client.id, Number(p.t), now))) {
    // Signed with the right key: a replay, or the phone's clock went back. Not a failed login.
    return route.refuse({ client, counts: false, msg: Msg.ReplayedHeart, reason: "heartbeat t is not newer than the last accepted one (a replay, or the phone clock went back)" });
  }
  const accounts = (await clientAccounts(gw, client)).map((a) => a.id);
  await markClientSeen(gw, { kind: "vmq", pid: client.pid, name: client.name }, accounts);
  await gw.store.insertReport({
    kind: "vmq-heart", pid: client.pid, client: client.name, raw: rawOf("vmq-heart", p), amount: null, payType: "", channelCode: "", dedupeKey: null,
    outcome: "accepted", ...reasonFields(because("online", { n: accounts.length })), tradeNo: null, createdAt: now,
  });
  gw.metrics.report("vmq-heart", "accepted");
  return reply(ok());
}
