// Where a V免签 order's notification and return link go. dujiaoka answers the payer with a redirect
// to its createOrder link, so the link passes the payer's browser, and V免签's sign covers neither
// notifyUrl nor returnUrl: a payer rewrote notifyUrl to an internal address and xpay delivered to
// it. So only the merchant's operator chooses: a caller's URL is used when it is the one configured
// for the merchant (vmq_notify_url, vmq_return_url) or its host is listed (vmq_url_hosts, for
// links that carry the shop's order number in the path, as dujiaoka's return link does);
// otherwise the configured one is used. A notifyUrl admitted by its host must not point to a
// private, loopback or reserved address, literally or once resolved, whatever
// notify_block_private says: a listed public name that resolves to 127.0.0.1 is the attack itself.
// A shop on this machine or a private network is reached through the exact vmq_notify_url.
import type { Gateway } from "../../core/gateway.ts";
import { parseHosts, urlHost } from "../../core/merchant-settings.ts";
import { createTargetProblem } from "../../core/notify/target.ts";
import type { Merchant } from "../../core/types.ts";

export type VmqTargets = { ok: true; notifyUrl: string; returnUrl: string } | { ok: false; reason: string };

interface Given {
  notifyUrl: string;
  returnUrl: string;
}

/** The caller's URL when the operator's settings admit it, else null. */
async function admitted(gw: Gateway, url: string, configured: string, hosts: string[], notify: boolean): Promise<string | null> {
  if (url === configured) return url;
  const host = urlHost(url);
  if (host === null || !hosts.includes(host)) return null;
  if (notify && (await createTargetProblem(url, gw.lookup)) !== null) return null;
  return url;
}

export async function vmqTargets(gw: Gateway, merchant: Merchant, given: Given): Promise<VmqTargets> {
  const s = merchant.settings;
  const hosts = parseHosts(s.vmq_url_hosts ?? "");
  const chosen = { notifyUrl: "", returnUrl: "" };
  for (const [field, key, notify] of [["notifyUrl", "vmq_notify_url", true], ["returnUrl", "vmq_return_url", false]] as const) {
    const configured = s[key] ?? "";
    const url = given[field];
    const ok = url === "" ? null : await admitted(gw, url, configured, hosts, notify);
    chosen[field] = ok ?? configured;
    if (url === "" || ok !== null) continue;
    // The operator sees who sent a URL it did not choose; the order goes to the configured one.
    gw.log.event("vmq.url_refused", { pid: merchant.pid, field, host: (urlHost(url) ?? "").slice(0, 128), used: configured === "" ? "none" : "configured" });
    if (notify && configured === "") {
      return {
        ok: false,
        reason: `notifyUrl is not this merchant's notification address: the operator sets it with xpay merchant set ${merchant.pid} --setting vmq_notify_url=<the shop's notify URL> (or lists the shop's host in vmq_url_hosts)`,
      };
    }
  }
  return { ok: true, ...chosen };
}
