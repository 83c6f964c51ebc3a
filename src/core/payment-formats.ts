// The one table of payment notifications a phone may forward (POST /api/report/{pid}).
//
// A row is one format of one source: the app's package, the exact title the source posts under
// and the whole text. The matcher (report-rules.ts) anchors both patterns itself (^...$), so a
// row can never match a chat, group, friend-request or forwarded message that merely QUOTES the
// wording: the payer knows the amount from the cashier page and can type it anywhere. To support a
// new format, add a row; keep the title an exact list of the source's own names (oneOf) and the
// text the source's whole sentence, with `${AMOUNT}` where the amount is.

import type { PayType } from "./order-input.ts";

export type { PayType };

export interface MessageRule {
  /** Rows of one wording in different layouts share an id (it is what a paid report names). */
  id: string;
  pkg: string;
  payType: PayType;
  /** The whole title; anchored by the matcher. */
  title: RegExp;
  /** The whole text (msg, runs of white space folded to one space); anchored by the matcher.
   * The amount is the named group `amount`, in the title or here. */
  text: RegExp;
  /** WeChat folds unread messages of one chat into "[N条]<title>: <text>": accept that form,
   * but only when the folded sender is the title itself (never "[3条]张三: ..."). */
  folded?: boolean;
}

export const ALIPAY = "com.eg.android.AlipayGphone";
export const WECHAT = "com.tencent.mm";
export const QQ = "com.tencent.mobileqq";

/** Exact alternatives, escaped: a title is one of the source's names, never a pattern. */
export const oneOf = (...names: string[]) => names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");

// An amount only counts with a currency mark: a leading ¥/￥ or a trailing 元 (bare numbers are
// counts, dates, order numbers). The trailing guard stops "1,2345" or "12.345" from matching as a
// shorter valid prefix; "12.345" is captured whole and refused as an invalid amount.
export const AMOUNT =
  String.raw`[:：]?\s?(?=[¥￥]|[\d,.]+\s?元)[¥￥]?\s?(?<amount>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?![\d,]|\.\d)\s?元?`;
const CLERK = String.raw`[\[【]店员消息[\]】]`;
/** WeChat's note on who paid: (朋友到店), (老顾客消费), ... */
const WX_GUEST = String.raw`(?:[(（](?:朋友到店|[新老]顾客(?:消费|到店))[)）])?`;
/** The day's running count some sources append: "今日第3笔收款，共计¥36.00". */
const TALLY = String.raw`(?:[，,]?\s?今日第\d+笔(?:收款)?(?:[，,]\s?共计[¥￥]\d[\d,]*(?:\.\d{1,2})?)?)?`;
const LINK = String.raw`(?:[，,]?\s?点击查看(?:详情)?)?`;
/** Alipay writes the payer's (masked) name before 通过扫码; a name holds no colon, bracket or space,
 * which is what a group ("张三: ...") or folded ("[2条]...") prefix needs. */
const PAYER = String.raw`[^\s:：\[\]【】]{0,24}`;

const WX_PAY = oneOf("微信支付", "微信收款助手");
const ALIPAY_TITLES = oneOf("", "支付宝", "支付宝通知", "收款通知", "收钱码收款", "收款到账通知", "收款单到账", "店员通");

function row(id: string, pkg: string, payType: PayType, title: string, text: string, folded = false): MessageRule {
  return { id, pkg, payType, title: new RegExp(title), text: new RegExp(text), folded };
}
const wx = (id: string, title: string, text: string) => row(id, WECHAT, "wxpay", title, text, true);
const ali = (id: string, title: string, text: string) => row(id, ALIPAY, "alipay", title, text);
const qq = (id: string, text: string) => row(id, QQ, "qqpay", oneOf("QQ钱包"), text);

// Order matters only when two rows of one package overlap: the more specific first.
export const MESSAGE_RULES: MessageRule[] = [
  // WeChat Pay (微信支付) and 微信收款助手 / 收款商业版 (the 店员消息 of clerks).
  wx("wxpay.received", WX_PAY, `微信支付收款${AMOUNT}${WX_GUEST}${TALLY}`),
  wx("wxpay.reward", WX_PAY, `二维码赞赏到账${AMOUNT}`),
  wx("wxpay.qrcode", WX_PAY, `个人收款码到账${AMOUNT}`),
  wx("wxpay.clerk", oneOf("微信收款商业版", "微信收款助手"), `${CLERK}\\s?收款到账${AMOUNT}`),
  // A bare "收款到账" is trusted only from 收款助手 itself (its digests say 汇总 and do not fit).
  wx("wxpay.assistant", oneOf("微信收款助手"), `收款到账${AMOUNT}`),

  // Alipay: the wording in the text under one of Alipay's own titles, or in the title itself.
  ali("alipay.received", ALIPAY_TITLES, `[你您]已成功收款${AMOUNT}${LINK}`),
  ali("alipay.received", `[你您]已成功收款${AMOUNT}`, `(?:立即查看今日收款金额>>|点击查看(?:详情)?)?`),
  ali("alipay.scan", ALIPAY_TITLES, `${PAYER}通过扫码向[你您]付款${AMOUNT}`),
  ali("alipay.qrcode", ALIPAY_TITLES, `(?:个人|经营码)?收款码到账${AMOUNT}${TALLY}`),
  ali("alipay.qrcode", `收款码到账${AMOUNT}`, `(?:点击查看(?:详情)?)?`),
  ali("alipay.bill", ALIPAY_TITLES, `收款单到账${AMOUNT}`),
  ali("alipay.clerk", ALIPAY_TITLES, `(?:${CLERK}|店员通)\\s?收款到账${AMOUNT}`),
  ali("alipay.clerk", CLERK, `收款到账${AMOUNT}`),

  // QQ wallet (QQ钱包).
  qq("qqpay.received", `(?:QQ钱包\\s?(?:收款通知|到账提醒)\\s?[:：]?\\s?)?(?:[你您]已)?成功收款${AMOUNT}`),
  qq("qqpay.wallet", `收款通知[:：]\\s?收款${AMOUNT}`),
  // Bank SMS: no row yet (no pay type for it); one would be row(id, <SMS app package>, ...).
];

// Not used to decide (the anchored rows do): they name why a notification that mentions money
// is not a payment (promotions, failures, refunds, money going out), for the stored reason.
export const SHARED_REJECTS: RegExp[] = [
  /送你|红包|优惠券|代金券|领取|立减|奖励金/,
  /失败|退款|退回|撤销|已关闭/,
  /成功付款|付款成功|向(?![你您])[^\s，,。]{1,20}?付款/,
];
