// Notifications that quote a payment's wording without being one: a chat, a group, a friend
// request, a forwarded caption, a lookalike title, words around the wording (issue 14, item 2).
// The built-in formats (core/payment-formats.ts) refuse every one of them, and an operator's rule
// (core/rules/check.ts) is refused on save when it accepts any: the list lives in the core so the
// binary carries it. The tests' corpus (test/fixtures/notifications.ts) is this list.
import { ALIPAY, QQ, WECHAT } from "../payment-formats.ts";

export interface ChatSample {
  name: string;
  pkg: string;
  title: string;
  text: string;
}

const s = (name: string, pkg: string, title: string, text: string): ChatSample => ({ name, pkg, title, text });

export const CHAT_SAMPLES: ChatSample[] = [
  // A contact nicknamed 微信支付: the title is right, the text is a chat message.
  s("contact 微信支付 sends the issue's wording", WECHAT, "微信支付", "收款码到账¥13.22"),
  s("contact 微信支付, two unread", WECHAT, "微信支付", "[2条]微信支付: 收款码到账¥13.22"),
  s("contact 微信支付, wording plus a request", WECHAT, "微信支付", "个人收款码到账¥13.22，麻烦发货"),
  s("contact 微信支付, greeting first", WECHAT, "微信支付", "您好 微信支付收款13.22元(朋友到店)"),
  // Friend requests carry a note the requester wrote.
  s("friend request note", WECHAT, "微信", "张三请求添加你为朋友：个人收款码到账¥13.22"),
  s("friend request by 微信支付", WECHAT, "微信支付", "请求添加你为朋友 个人收款码到账¥13.22"),
  s("friend request, 新的朋友", WECHAT, "新的朋友", "微信支付: 个人收款码到账¥13.22"),
  // Group messages: "<sender>: <text>", folded "[N条]<sender>: <text>", a group named like the source.
  s("group, folded, the issue's example", WECHAT, "某某交流群", "[3条]张三: 收款码到账¥13.22"),
  s("group, one message", WECHAT, "某某交流群", "张三: 个人收款码到账¥13.22"),
  s("group named 微信支付, folded", WECHAT, "微信支付", "[3条]张三: 个人收款码到账¥13.22"),
  s("group named 微信支付, one message", WECHAT, "微信支付", "张三: 个人收款码到账¥13.22"),
  s("group name and sender in the text", WECHAT, "微信", "某某交流群: 张三: 微信支付收款13.22元(朋友到店)"),
  s("folded with another sender", WECHAT, "微信收款助手", "[2条]张三: 收款到账13.22元"),
  // Forwarded screenshots and chat records keep the wording in a caption.
  s("forwarded screenshot caption", WECHAT, "张三", "[图片] 个人收款码到账¥13.22"),
  s("forwarded chat record", WECHAT, "张三", "[聊天记录] 微信支付收款13.22元(朋友到店)"),
  s("forwarded, caption in title", WECHAT, "微信支付", "转发：个人收款码到账¥13.22"),
  // The genuine text under a title that is not the payment source.
  s("chat from 张三 with the genuine text", WECHAT, "张三", "微信支付收款13.22元(朋友到店)"),
  s("title with a trailing space", WECHAT, "微信支付 ", "个人收款码到账¥13.22"),
  s("title with a zero-width space", WECHAT, "微信支付\u200b", "个人收款码到账¥13.22"),
  s("lookalike title 微信支付助手", WECHAT, "微信支付助手", "个人收款码到账¥13.22"),
  s("clerk wording in a chat", WECHAT, "张三", "[店员消息]收款到账13.22元"),
  // Two amounts, one of them the target: the anchored text admits one payment only.
  s("two wordings in one text", WECHAT, "微信支付", "个人收款码到账¥0.01 个人收款码到账¥13.22"),
  s("yesterday's digest", WECHAT, "微信收款助手", "昨日收款汇总：收款到账13.22元"),
  // Alipay chats: the title is the friend's name.
  s("Alipay chat", ALIPAY, "张三", "你已成功收款13.22元"),
  s("Alipay chat, scan wording", ALIPAY, "李四", "张三通过扫码向你付款13.22元"),
  s("Alipay chat, wording in the title", ALIPAY, "收款码到账13.22元", "哈哈"),
  s("Alipay group-shaped text", ALIPAY, "支付宝", "张三: 收款码到账¥13.22"),
  s("Alipay, folded form", ALIPAY, "支付宝通知", "[2条]张三: 你已成功收款13.22元"),
  s("Alipay, words after the wording", ALIPAY, "收钱码收款", "你已成功收款13.22元 骗你的"),
  s("Alipay, words before the wording", ALIPAY, "支付宝通知", "截图给你看：个人收款码到账¥13.22"),
  // QQ chats and groups.
  s("QQ chat", QQ, "张三", "成功收款13.22元"),
  s("QQ group", QQ, "某某群", "张三: QQ钱包到账提醒：成功收款13.22元"),
  s("QQ, contact nicknamed QQ钱包", QQ, "QQ钱包", "我已经转了，成功收款13.22元"),
];
