// The order behind /getOrder?orderId= and /checkOrder?orderId=: V免签's pay page polls these with
// the order number alone, no signature, as the template API is read by the unguessable order_id. Only
// vmq orders answer (another family's order reads as unknown), and the calls share the payer
// routes' per-address limit (public_rate_limit), so trade numbers cannot be walked quickly.
import type { Gateway } from "../../core/gateway.ts";
import { TokenBuckets } from "../../core/token-bucket.ts";
import type { Order } from "../../core/types.ts";
import { peerIp } from "../http.ts";
import { readParams } from "../params.ts";
import { reply } from "./auth.ts";
import { fail, Msg } from "./codec.ts";

const ORDER_ID = /^[0-9A-Za-z_-]{1,64}$/;

type Lookup = { order: Order } | { response: Response };

export class VmqOrderLookup {
  private readonly buckets = new TokenBuckets();
  constructor(private readonly gw: Gateway) {}

  async find(request: Request): Promise<Lookup> {
    const limit = (await this.gw.settings()).int("public_rate_limit");
    if (limit > 0 && !this.buckets.take(peerIp(request, undefined, this.gw.proxyHops) || "unknown", limit, Date.now())) {
      const res = reply(fail("请求过于频繁，请稍后再试"));
      res.headers.set("retry-after", String(Math.max(1, Math.ceil(60 / limit))));
      return { response: res };
    }
    const read = await readParams(request);
    if (!read.ok) return { response: reply(fail(Msg.Unreadable)) };
    const id = read.params.orderId ?? "";
    const order = ORDER_ID.test(id) ? await this.gw.store.getOrder(id) : null;
    if (!order || order.family !== "vmq") return { response: reply(fail(Msg.NoOrder)) };
    return { order };
  }
}
