// Refusals must cost the caller more than the gateway. Every family's authentication counts its
// refusals (unreadable parameters, unknown or disabled merchant, bad signature or key) per client
// address; an address that has used up `auth_fail_limit` refusals in a minute is answered at
// once, before any lookup, signature check or stored report, until its bucket refills. Requests
// with no known address (in-process calls such as the tests' app.handle) are not counted.
import type { Gateway } from "../core/gateway.ts";
import { peerIp } from "./http.ts";

export const THROTTLED = "too many failed authentications from this address; wait a minute, then check the merchant id, secret and signature";

export interface AuthGate {
  /** The address has no refusals left: answer THROTTLED without looking further. */
  readonly blocked: boolean;
  /** Counts one refusal against the address. */
  failed(): void;
  /** Seconds until one more attempt is allowed (for Retry-After). */
  readonly retryAfter: number;
}

const OPEN: AuthGate = { blocked: false, failed: () => {}, retryAfter: 0 };

export async function authGate(gw: Gateway, request: Request): Promise<AuthGate> {
  const limit = (await gw.settings()).int("auth_fail_limit");
  // The socket address was cached by serve's fetch wrapper before routing (socketIp).
  const source = peerIp(request, undefined, gw.proxyHops);
  if (limit <= 0 || source === "") return OPEN;
  const now = gw.clock.nowMs();
  return {
    blocked: !gw.authFailures.has(source, limit, now),
    failed: () => void gw.authFailures.take(source, limit, now),
    retryAfter: Math.max(1, Math.ceil(60 / limit)),
  };
}
