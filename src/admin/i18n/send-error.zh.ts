// A notification attempt's error in the page's words (send-error.ts); the raw text stays in a title.
export const sendErrorZh = {
  "senderr.refused": "连接被拒绝：商户服务器没有在该端口监听（{code}）",
  "senderr.reset": "连接被商户服务器中断（{code}）",
  "senderr.unreachable": "无法连接商户服务器（{code}）",
  "senderr.tls": "HTTPS 证书或握手失败（{code}）",
  "senderr.timeout": "{ms} 毫秒内没有应答（超时）",
  "senderr.http": "商户返回 HTTP {status}",
  "senderr.redirect": "商户返回重定向（HTTP {status}），不会跟随",
  "senderr.not_ack": "商户已应答，但不是约定的确认（如 success）",
  "senderr.unresolved": "无法解析域名 {host}",
  "senderr.private": "通知地址指向内网或保留地址，已拒绝发送",
  "senderr.bad_url": "通知地址不是有效的 http(s) 地址",
  "senderr.gone": "订单或商户已不存在",
  "senderr.no_key": "签名该订单通知的密钥已不存在",
} as const;
