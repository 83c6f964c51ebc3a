// The one table of payment notifications a phone may forward (POST /api/report/{pid}).
//
// A row is one format of one source: the app's package, the exact names the source posts under
// and the whole text. The matcher (report-rules.ts) compares the title with the names as sent and
// anchors the text itself (^...$), so a row can never match a chat, group, friend-request or
// forwarded message that merely QUOTES the wording: the payer knows the amount from the cashier
// page and can type it anywhere. To support a new format, add a row; keep the title a list of the
// source's own names and the text the source's whole sentence, with `${AMOUNT}` where the amount
// is. Patterns run on the linear-time engine (linear-pattern.ts, RE2 syntax: no look-arounds), as
// the operator's rules do: one engine and one time bound for everything a stranger's text meets.

import { LinearPattern } from "./linear-pattern.ts";
import type { PayType } from "./order-input.ts";

export type { PayType };

export interface MessageRule {
  /** Rows of one wording in different layouts share an id (it is what a paid report names). */
  id: string;
  pkg: string;
  payType: PayType;
  /** The sender's exact names: the whole title, compared as sent, is one of them. Never a pattern. */
  titles: readonly string[];
  /** Built-in rows only: the title IS the wording (Alipay posts "收款码到账12元" as a title); anchored,
   * and used instead of `titles`. An operator's rule never has one. */
  titleWording?: LinearPattern;
  /** The whole text (msg, runs of white space folded to one space); anchored by the matcher.
   * The amount is the named group `amount`, in the title wording or here. */
  text: LinearPattern;
  /** WeChat folds unread messages of one chat into "[N条]<title>: <text>": accept that form,
   * but only when the folded sender is the title itself (never "[3条]张三: ..."). */
  folded?: boolean;
}

export const ALIPAY = "com.eg.android.AlipayGphone";
export const WECHAT = "com.tencent.mm";
export const QQ = "com.tencent.mobileqq";

// An amount only counts with a currency mark: a leading ¥/￥ or a trailing 元 (bare numbers are
// counts, dates, order numbers). The group holds the mark too (RE2 has no look-ahead to demand
// one without taking it, and a group name appears once): the matcher strips it (moneyText in
// report-rules.ts). "1,2345" cannot match as a shorter valid prefix, since the text is anchored
// and no tail starts with a digit; "12.345" is captured whole and refused as an invalid amount.
const NUM = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`;
export const AMOUNT = String.raw`[:：]?\s?(?<amount>[¥￥]\s?${NUM}\s?元?|${NUM}\s?元)`;
const CLERK = String.raw`[\[【]店员消息[\]】]`;
/** WeChat's note on who paid: (朋友到店), (老顾客消费), ... */
const WX_GUEST = String.raw`(?:[(（](?:朋友到店|[新老]顾客(?:消费|到店))[)）])?`;
/** The day's running count some sources append: "今日第3笔收款，共计¥36.00". */
const TALLY = String.raw`(?:[，,]?\s?今日第\d+笔(?:收款)?(?:[，,]\s?共计[¥￥]\d[\d,]*(?:\.\d{1,2})?)?)?`;
const LINK = String.raw`(?:[，,]?\s?点击查看(?:详情)?)?`;
/** Alipay writes the payer's (masked) name before 通过扫码; a name holds no colon, bracket or space,
 * which is what a group ("张三: ...") or folded ("[2条]...") prefix needs. */
const PAYER = String.raw`[^\s:：\[\]【】]{0,24}`;

const WX_PAY = ["微信支付", "微信收款助手"];
const ALIPAY_TITLES = ["", "支付宝", "支付宝通知", "收款通知", "收钱码收款", "收款到账通知", "收款单到账", "店员通"];

/** `title`: the sender's names, or (Alipay only) the wording posted as the title. */
function row(id: string, pkg: string, payType: PayType, title: string[] | string, text: string, folded = false): MessageRule {
  const names = Array.isArray(title) ? { titles: title } : { titles: [], titleWording: LinearPattern.of(title) };
  return { id, pkg, payType, ...names, text: LinearPattern.of(text), folded };
}
const wx = (id: string, title: string[], text: string) => row(id, WECHAT, "wxpay", title, text, true);
const ali = (id: string, title: string[] | string, text: string) => row(id, ALIPAY, "alipay", title, text);
const qq = (id: string, text: string) => row(id, QQ, "qqpay", ["QQ钱包"], text);

// Order matters only when two rows of one package overlap: the more specific first.
export const MESSAGE_RULES: MessageRule[] = [
  // WeChat Pay (微信支付) and 微信收款助手 / 收款商业版 (the 店员消息 of clerks).
  wx("wxpay.received", WX_PAY, `微信支付收款${AMOUNT}${WX_GUEST}${TALLY}`),
  wx("wxpay.reward", WX_PAY, `二维码赞赏到账${AMOUNT}`),
  wx("wxpay.qrcode", WX_PAY, `个人收款码到账${AMOUNT}`),
  wx("wxpay.clerk", ["微信收款商业版", "微信收款助手"], `${CLERK}\\s?收款到账${AMOUNT}`),
  // A bare "收款到账" is trusted only from 收款助手 itself (its digests say 汇总 and do not fit).
  wx("wxpay.assistant", ["微信收款助手"], `收款到账${AMOUNT}`),

  // Alipay: the wording in the text under one of Alipay's own titles, or in the title itself.
  ali("alipay.received", ALIPAY_TITLES, `[你您]已成功收款${AMOUNT}${LINK}`),
  ali("alipay.received", `[你您]已成功收款${AMOUNT}`, `(?:立即查看今日收款金额>>|点击查看(?:详情)?)?`),
  ali("alipay.scan", ALIPAY_TITLES, `${PAYER}通过扫码向[你您]付款${AMOUNT}`),
  ali("alipay.qrcode", ALIPAY_TITLES, `(?:个人|经营码)?收款码到账${AMOUNT}${TALLY}`),
  ali("alipay.qrcode", `收款码到账${AMOUNT}`, `(?:点击查看(?:详情)?)?`),
  ali("alipay.bill", ALIPAY_TITLES, `收款单到账${AMOUNT}`),
  ali("alipay.clerk", ALIPAY_TITLES, `(?:${CLERK}|店员通)\\s?收款到账${AMOUNT}`),
  ali("alipay.clerk", ["[店员消息]", "【店员消息】", "[店员消息】", "【店员消息]"], `收款到账${AMOUNT}`), // CLERK, as names

  // QQ wallet (QQ钱包).
  qq("qqpay.received", `(?:QQ钱包\\s?(?:收款通知|到账提醒)\\s?[:：]?\\s?)?(?:[你您]已)?成功收款${AMOUNT}`),
  qq("qqpay.wallet", `收款通知[:：]\\s?收款${AMOUNT}`),
  // Bank SMS: no row yet (no pay type for it); one would be row(id, <SMS app package>, ...).
];

const tablePatterns = () => [...MESSAGE_RULES.flatMap((r) => [r.text, ...(r.titleWording ? [r.titleWording] : [])]), ...SHARED_REJECTS];
const WARM_SAMPLE = "微信支付收款1.00元";
let warmed = 0;

/** Compiles the table and runs each pattern once (the rows compile on first use; the engine's code
 * is cold until it runs), before a message's time budget starts, so the first payment after a
 * start does not spend its budget on compiling (0.4-0.9 s in all) and warming. */
export function prepareTable(): void {
  const all = tablePatterns();
  for (; warmed < all.length; warmed++) {
    all[warmed]!.wholeGroups(WARM_SAMPLE);
    all[warmed]!.test(WARM_SAMPLE);
  }
}

/** The same, one pattern per turn of the event loop: `serve` calls it once it listens, so neither
 * its start nor the requests of its first second wait for the whole table. */
export function prepareTableSoon(): void {
  const all = tablePatterns();
  if (warmed >= all.length) return;
  setTimeout(() => {
    if (warmed < all.length) {
      all[warmed]!.wholeGroups(WARM_SAMPLE);
      all[warmed]!.test(WARM_SAMPLE);
      warmed++;
    }
    prepareTableSoon();
  }, 0);
}

// Not used to decide (the anchored rows do): they name why a notification that mentions money
// is not a payment (promotions, failures, refunds, money going out), for the stored reason.
export const SHARED_REJECTS: LinearPattern[] = [
  "送你|红包|优惠券|代金券|领取|立减|奖励金",
  "失败|退款|退回|撤销|已关闭",
  // Money going out to someone ("向张三付款"), not to you: the first letter after 向 is not 你/您.
  String.raw`成功付款|付款成功|向[^\s，,。你您][^\s，,。]{0,19}?付款`,
].map((p) => LinearPattern.of(p));
