// Links xpay hands out that several families share: the QR image endpoint (cashier `qrcode`,
// hash `url_qrcode`) and the pay-type icons (cashier `pay_type_logo`).
import { isKnownPayType } from "../core/order-input.ts";

export const QR_PATH = "/qrcode";
export const QR_MAX_TEXT = 1024;

export function qrImageUrl(baseUrl: string, text: string, format: "png" | "svg" = "png"): string {
  return `${baseUrl}${QR_PATH}?${new URLSearchParams({ text, format })}`;
}

/** Served by the gateway itself (src/server/pay-type-icons.ts), so the page loads nothing from outside. */
export const PAY_TYPE_ICON_PATH = "/assets/pay-types";
export const PAY_TYPE_ICONS = ["alipay", "wxpay", "qqpay", "other"] as const;

/** A pay type xpay has no icon for (an operator's own name) gets the neutral card icon. */
export function payTypeLogoUrl(baseUrl: string, payType: string): string {
  return `${baseUrl}${PAY_TYPE_ICON_PATH}/${isKnownPayType(payType) ? payType : "other"}.svg`;
}
