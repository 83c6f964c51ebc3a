// GET /assets/pay-types/{alipay,wxpay,qqpay,other}.svg: the pay-type icons of the cashier's
// chooser (`pay_type_logo`). Drawn for xpay and imported as text, so the compiled binary carries
// them and the payer's page fetches nothing from another site. Public and the same for everyone,
// so browsers may keep them.
import { Elysia } from "elysia";
import { PAY_TYPE_ICON_PATH } from "../protocols/links.ts";
import alipay from "./cashier/icons/alipay.svg" with { type: "text" };
import other from "./cashier/icons/other.svg" with { type: "text" };
import qqpay from "./cashier/icons/qqpay.svg" with { type: "text" };
import wxpay from "./cashier/icons/wxpay.svg" with { type: "text" };

const ICONS: Record<string, string> = { "alipay.svg": alipay, "wxpay.svg": wxpay, "qqpay.svg": qqpay, "other.svg": other };

export function payTypeIcon(file: string): Response {
  const svg = Object.hasOwn(ICONS, file) ? ICONS[file] : undefined;
  if (svg === undefined) return new Response("not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(svg, {
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": "public, max-age=86400",
      "x-content-type-options": "nosniff",
      // Opened on its own, an SVG is a document: nothing in it may run or load.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}

export function payTypeIconsPlugin() {
  return new Elysia({ name: "xpay-pay-type-icons" }).get(`${PAY_TYPE_ICON_PATH}/:file`, ({ params }) => payTypeIcon(params.file), {
    detail: { summary: "Pay-type icon of the cashier page" },
  });
}
