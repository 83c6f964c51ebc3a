// Label values of /metrics come from fixed lists only: a label never carries a path, an order
// number, a merchant's input or a secret, and a stranger cannot grow the number of series.
import { PAY_TYPES } from "../../core/order-input.ts";

/** The route family of a request path (with or without its query): never the path itself. */
export function routeFamily(path: string): string {
  if (path.startsWith("/xpay/")) {
    if (path.startsWith("/xpay/epayn/")) return "epay-v2";
    if (path.startsWith("/xpay/epay/")) return "epay-v1";
    if (path.startsWith("/xpay/hashpay") || path.startsWith("/xpay/hupijiao")) return "hashpay";
    return "native";
  }
  if (path.startsWith("/api/report")) return "report";
  if (path.startsWith("/api/order") || path.startsWith("/pay/") || path.startsWith("/qrcode")) return "cashier";
  if (path.startsWith("/admin")) return "admin";
  if (/^\/(?:appHeart|appPush|getState|createOrder|getOrder|checkOrder|closeOrder)(?:[/?]|$)/.test(path)) return "vmq";
  return "other";
}

export const ROUTE_FAMILIES = ["native", "epay-v1", "epay-v2", "hashpay", "cashier", "report", "vmq", "admin", "other"];

/** An order's pay type as a label: the known ones, "none" (not picked yet), or "other" (any name a merchant sent). */
export function payTypeLabel(payType: string): string {
  if (payType === "") return "none";
  return (PAY_TYPES as readonly string[]).includes(payType) ? payType : "other";
}

const FAMILIES = new Set(["native", "epay-v1", "epay-v2", "hashpay", "vmq"]);
export const familyLabel = (family: string): string => (FAMILIES.has(family) ? family : "other");

const REPORT_KINDS = new Set(["message", "amount", "heart", "third-account", "third-heart", "operator", "vmq-push", "vmq-heart"]);
const OUTCOMES = new Set(["matched", "unmatched", "duplicate", "rejected", "accepted"]);
export const reportKindLabel = (kind: string): string => (REPORT_KINDS.has(kind) ? kind : "other");
export const outcomeLabel = (outcome: string): string => (OUTCOMES.has(outcome) ? outcome : "other");
