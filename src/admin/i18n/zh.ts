// Console text in Chinese (the default). Keys are grouped by page with a prefix; every key here
// must exist in en.ts too (its type says so, tsc checks it). `{n}`-style placeholders are filled
// by t(key, { n: ... }); values are plain text, escaped where they are rendered.
import { accountsZh } from "./accounts.zh.ts";
import { dashboardZh } from "./dashboard.zh.ts";
import { merchantsZh } from "./merchants.zh.ts";
import { ordersZh } from "./orders.zh.ts";
import { reportsZh } from "./reports.zh.ts";
import { settingsZh } from "./settings.zh.ts";
import { clientsZh } from "./clients.zh.ts";
import { keyedZh } from "./keyed.zh.ts";
import { deliveryZh } from "./delivery.zh.ts";
import { sendErrorZh } from "./send-error.zh.ts";
import { auditActionsZh } from "./audit-actions.zh.ts";
import { problemsZh } from "./problems.zh.ts";
import { whyZh } from "./why.zh.ts";
import { formatZh } from "./format.zh.ts";
import { olistZh } from "./olist.zh.ts";
import { testpayZh } from "./testpay.zh.ts";
import { alertsZh } from "./alerts.zh.ts";
import { rulesZh } from "./rules.zh.ts";
import { outboxZh } from "./outbox.zh.ts";
import { filtersZh } from "./filters.zh.ts";
import { operatorsZh } from "./operators.zh.ts";
import { backupsZh } from "./backups.zh.ts";

export const zh = {
  "app.name": "xpay 控制台",
  "app.skip": "跳到正文",
  "app.signed_in_as": "当前用户",
  "app.logout": "退出登录",
  "app.lang_switch": "English",
  "app.menu": "菜单",
  "app.loading": "加载中…",
  "app.request_failed": "请求失败，请刷新页面后重试",

  "nav.dashboard": "概览",
  "nav.orders": "订单",
  "nav.reports": "上报",
  "nav.merchants": "商户",
  "nav.accounts": "收款账户",
  "nav.clients": "监控端",
  "nav.settings": "设置",
  "nav.audit": "审计日志",
  "nav.sessions": "会话",

  "error.forbidden": "请求被拒绝：来源不符或表单已过期，请刷新页面后重试。",
  "error.unauthorized": "登录已失效，请重新登录。",
  "error.not_found": "页面不存在",
  "error.not_found_hint": "请检查地址，或从左侧菜单进入。",
  "error.internal": "服务器内部错误，请稍后再试。",
  "error.bad_input": "请求中含有表单无法发送的字符（NUL）。",
  "error.too_large": "提交的内容过大。",
  "error.back_home": "返回概览",

  "name.bad_name": "用户名为 1–32 个字符：字母、数字及 . _ @ -，以字母或数字开头。",
  "name.reserved_name": "该名称为系统保留（cli、system、anonymous），请换一个。",
  "password.too_short": "密码至少 {n} 个字符。",
  "password.too_long": "密码最多 {n} 个字符。",
  "password.same_as_name": "密码不能与用户名相同。",
  "password.too_simple": "密码不能只由一两个字符重复组成。",
  "password.mismatch": "两次输入的密码不一致。",
  "password.wrong_current": "当前密码不正确。",
  "password.rules": "至少 {n} 个字符；建议使用一句话或密码管理器生成的长密码。",

  "login.title": "登录",
  "login.heading": "登录 xpay 控制台",
  "login.user": "用户名",
  "login.password": "密码",
  "login.submit": "登录",
  "login.bad_credentials": "用户名或密码错误。",
  "login.throttled": "尝试次数过多，请 {n} 秒后再试。",
  "login.busy": "同时登录的请求过多，请 {n} 秒后再试。",
  "login.required": "请输入用户名和密码。",
  "login.logged_out": "已退出登录。",
  "login.expired": "会话已过期，请重新登录。",
  "login.forgot": "忘记密码？在服务器上运行以下命令重设：",

  "setup.title": "初始设置",
  "setup.heading": "创建第一个管理员",
  "setup.intro": "这个数据库还没有管理员。创建后此设置链接即失效，之后请用用户名和密码登录。",
  "setup.user": "用户名",
  "setup.password": "密码",
  "setup.repeat": "再次输入密码",
  "setup.submit": "创建并登录",
  "setup.bad_token": "设置链接无效或已过期。请重新启动 xpay serve 获取新链接，或在服务器上运行 xpay admin add --user 用户名。",
  "setup.operator_exists": "已有管理员，设置链接不再可用。请直接登录。",
  "setup.go_login": "前往登录",

  "dashboard.title": "概览",
  "dashboard.welcome": "欢迎，{name}",
  "dashboard.this_login": "本次登录于",
  "dashboard.from_ip": "来自 {ip}",

  "audit.title": "审计日志",
  "audit.intro": "控制台和命令行中每一次操作的记录：谁、何时、从哪里、改了什么。",
  "audit.filter_user": "操作人",
  "audit.filter_action": "操作",
  "audit.filter_any_action": "全部操作",
  "audit.filter_apply": "筛选",
  "audit.filter_clear": "清除",
  "audit.fix_filter": "筛选条件有误，请按提示修改。",
  "audit.col_time": "时间",
  "audit.col_actor": "操作人",
  "audit.col_action": "操作",
  "audit.col_target": "对象",
  "audit.col_ip": "IP",
  "audit.col_change": "变更",
  "audit.col_reason": "原因",
  "audit.none": "没有符合条件的记录。",
  "audit.newer": "← 较新",
  "audit.older": "较早 →",
  "audit.before": "之前",
  "audit.after": "之后",

  "sessions.title": "会话",
  "sessions.intro": "您的账户当前登录的浏览器。不认识的会话请立即注销，并修改密码。",
  "sessions.col_created": "登录时间",
  "sessions.col_used": "最近使用",
  "sessions.col_ip": "IP（登录 / 最近）",
  "sessions.col_agent": "浏览器",
  "sessions.current": "当前会话",
  "sessions.revoke": "注销",
  "sessions.revoke_confirm": "确定注销这个会话？",
  "sessions.revoked": "会话已注销。",
  "sessions.gone": "该会话已不存在。",
  "sessions.everywhere": "退出所有会话",
  "sessions.everywhere_hint": "包括当前浏览器，之后需要重新登录。",
  "sessions.everywhere_confirm": "确定退出所有会话（包括当前这个）？",
  "sessions.password_heading": "修改密码",
  "sessions.password_hint": "修改后，除当前会话外的所有会话都会退出。",
  "sessions.password_current": "当前密码",
  "sessions.password_new": "新密码",
  "sessions.password_repeat": "再次输入新密码",
  "sessions.password_submit": "修改密码",
  "sessions.password_changed": "密码已修改，其他 {n} 个会话已退出。",
  "sessions.failures_heading": "失败的登录（24 小时内）",
  "sessions.failures_hint": "所有用户名的失败登录，按分钟、用户名、浏览器和 IP 汇总。“被拒绝”是未检查密码就被挡下的次数（尝试过多，或登录排队已满）。曾在本浏览器登录过的账户不会因他人猜密码而被锁定。",
  "sessions.failures_none": "24 小时内没有失败的登录。",
  "sessions.col_minute": "时间（分钟）",
  "sessions.col_user": "用户名",
  "sessions.col_browser": "浏览器",
  "sessions.col_failed": "密码错误",
  "sessions.col_refused": "被拒绝",
  "sessions.browser_known": "登录过的浏览器",
  "sessions.browser_stranger": "陌生浏览器",
  ...ordersZh,
  ...reportsZh,
  ...merchantsZh,
  ...accountsZh,
  ...settingsZh,
  ...dashboardZh,
  ...clientsZh,
  ...keyedZh,
  ...deliveryZh,
  ...sendErrorZh,
  ...olistZh,
  ...formatZh,
  ...whyZh,
  ...problemsZh,
  ...auditActionsZh,
  ...testpayZh,
  ...alertsZh,
  ...rulesZh,
  ...outboxZh,
  ...filtersZh,
  ...operatorsZh,
  ...backupsZh,
} as const;
