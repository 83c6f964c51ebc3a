// What every vmq route does before its own work: the failed-authentication throttle every family
// shares, the parameter reader, and the refusal. V免签 answers everything with HTTP 200 and a
// {code: -1, msg}, and the app re-sends a push whose answer is not 2xx: refusals stay 200, so a
// refused push is not re-sent five times. Refused app requests (heartbeats, pushes) are stored
// like the report API's refusals (bounded, core/refusals.ts) so the operator can see why a phone
// gets nowhere; the merchant routes only count theirs, like the other merchant families.
import type { Gateway } from "../../core/gateway.ts";
import { recordRefusal } from "../../core/refusals.ts";
import type { DirectoryClient, ReportRecord } from "../../core/store.ts";
import { type AuthGate, authGate } from "../auth-gate.ts";
import { json, peerIp } from "../http.ts";
import { type Params, readParams } from "../params.ts";
import { rawOf } from "../report/codec.ts";
import { clientBySign, fail, Msg, type VmqEnvelope } from "./codec.ts";

export function reply(e: VmqEnvelope): Response {
  return json(e, 200);
}

export interface Opened {
  gate: AuthGate;
  params: Params;
}

type AppKind = Extract<ReportRecord["kind"], "vmq-push" | "vmq-heart">;

/** A refusal: `msg` for the caller (fixed Chinese text), `reason` for the operator's report list. */
export interface Refusal {
  msg: string;
  reason: string;
  /** Counted against the address (false for a replayed heartbeat that did carry a valid signature). */
  counts?: boolean;
  client?: DirectoryClient | null;
}

export class VmqRoute {
  constructor(
    private readonly gw: Gateway,
    private readonly request: Request,
    /** Set for the app's routes, whose refusals are stored. */
    private readonly kind: AppKind | null,
  ) {}

  private gate: AuthGate | null = null;
  params: Params | null = null;

  /** The throttle, then the parameters; a Response when the request ends here. */
  async open(): Promise<Response | Params> {
    this.gate = await authGate(this.gw, this.request);
    if (this.gate.blocked) {
      const res = reply(fail(Msg.Throttled));
      res.headers.set("retry-after", String(this.gate.retryAfter));
      return res;
    }
    const read = await readParams(this.request);
    if (!read.ok) return this.refuse({ msg: Msg.Unreadable, reason: read.reason });
    this.params = read.params;
    return read.params;
  }

  async refuse(r: Refusal): Promise<Response> {
    if (r.counts !== false) this.gate?.failed();
    if (this.kind) {
      const p = this.params;
      await recordRefusal(this.gw, {
        kind: this.kind, pid: r.client?.pid ?? null, source: peerIp(this.request, undefined, this.gw.proxyHops), client: r.client?.name ?? "",
        raw: p ? rawOf(this.kind, p) : "(unreadable request)", payType: "", channelCode: "", reason: r.reason,
      });
    }
    this.gw.log.event("vmq", { kind: this.kind ?? "merchant", outcome: "rejected", reason: r.reason });
    return reply(fail(r.msg));
  }

  /**
   * The client whose key signs `text`, among every V免签 client (the other kinds never sign here),
   * from the store's directory: read again only when a client or an account changed, so a phone
   * removed or rebound by any process is seen by its very next request. Its heartbeat and push
   * stamps are not in it (getState reads them for the one client that signed).
   */
  async client(text: string, sign: string | undefined): Promise<DirectoryClient | null> {
    return clientBySign((await this.gw.store.directory()).clients.filter((c) => c.kind === "vmq"), text, sign);
  }
}

export function missing(p: Params, names: string[]): string | null {
  const gone = names.filter((n) => (p[n] ?? "") === "");
  return gone.length ? `missing parameter: ${gone.join(", ")}` : null;
}
