// Units of format.ts (durations, 万/亿). English leaves fmt.wan empty: it groups in full.
export const formatZh = {
  "fmt.wan": "万",
  "fmt.yi": "亿",
  "fmt.d": "{n} 天",
  "fmt.h": "{n} 小时",
  "fmt.min": "{n} 分钟",
  "fmt.s": "{n} 秒",
};
