// Native protocol bodies, signed as a merchant SDK signs them (MD5, form encoding), precomputed so
// the client spends its share of the two cores sending rather than signing.
import { md5Sign } from "../src/protocols/signing.ts";
import { PID, SECRET } from "./seed.ts";

function form(params: Record<string, string>): string {
  const signed = { ...params, sign: md5Sign(params, SECRET, ["sign"]) };
  return new URLSearchParams(signed).toString();
}

const byte = () => Math.floor(Math.random() * 256);
/** A payer's IPv4 address: as in real traffic, nearly every create carries another. */
export const payerAddress = () => `${1 + Math.floor(Math.random() * 223)}.${byte()}.${byte()}.${1 + Math.floor(Math.random() * 254)}`;

/** An amount from 1.00 to 999.99 yuan, as a create's money field. */
export function randomYuan(): string {
  const cents = 100 + Math.floor(Math.random() * 99_900);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/**
 * Create bodies with distinct out_trade_nos, amounts from 1.00 to 999.99 yuan and payers' addresses
 * (`clientip`, which epay's mapi and merchants' SDKs send; since 2026-11-30 22:40: before, every
 * order had the load generator's address, and an index keyed by it cost the bench nothing).
 */
export function createBodies(n: number, prefix: string, notifyUrl: string): { bodies: string[]; outTradeNos: string[] } {
  const bodies: string[] = [];
  const outTradeNos: string[] = [];
  for (let i = 0; i < n; i++) {
    const out = `${prefix}${i}`;
    bodies.push(form({ pid: String(PID), pay_type: "alipay", name: "VIP", money: randomYuan(), out_trade_no: out, notify_url: notifyUrl, clientip: payerAddress() }));
    outTradeNos.push(out);
  }
  return { bodies, outTradeNos };
}

export function statusBodies(outTradeNos: string[]): string[] {
  return outTradeNos.map((o) => form({ pid: String(PID), out_order_id: o }));
}

export const createOk = (status: number, body: string) => status === 200 && body.startsWith('{"code":200');
