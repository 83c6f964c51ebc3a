// GET or POST /getState?t=&sign=md5(t + key): the monitor state of the client that signed,
// as V免签 answers it: lastheart and lastpay (Unix seconds, as text) and jkstate "1" online / "0"
// offline (online: a heartbeat within heartbeat_timeout). It changes nothing. Its signature is
// the heartbeat's, so `t` must also lie within vmq_time_window; a script may send seconds.
import type { Gateway } from "../../core/gateway.ts";
import { missing, reply, VmqRoute } from "./auth.ts";
import { checkAppTime, heartText, Msg, ok } from "./codec.ts";
import { vmqWindow } from "./settings.ts";

export async function getState(gw: Gateway, request: Request): Promise<Response> {
  const route = new VmqRoute(gw, request, null);
  const p = await route.open();
  if (p instanceof Response) return p;
  const gone = missing(p, ["t", "sign"]);
  if (gone) return route.refuse({ msg: Msg.BadSign, reason: gone });
  const signer = await route.client(heartText(p.t!), p.sign);
  const client = signer && (await gw.store.getKeyedClient(signer.id)); // the stamps: not in the directory
  if (!client) return route.refuse({ msg: Msg.BadSign, reason: "signature mismatch: sign = md5(t + key)" });
  if (!checkAppTime(p.t!, gw.clock.nowMs(), await vmqWindow(gw), { allowSeconds: true })) {
    return route.refuse({ msg: Msg.ClockWrong, reason: "t must be Unix seconds (10 digits) or milliseconds (13 digits) within the vmq_time_window setting" });
  }
  const timeout = (await gw.settings()).int("heartbeat_timeout");
  const online = client.lastHeartAt > 0 && gw.clock.now() - client.lastHeartAt <= timeout;
  return reply(ok({ lastheart: String(client.lastHeartAt), lastpay: String(client.lastPushAt), jkstate: online ? "1" : "0" }));
}
