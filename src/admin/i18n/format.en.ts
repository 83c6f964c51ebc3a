import type { formatZh } from "./format.zh.ts";

export const formatEn: Record<keyof typeof formatZh, string> = {
  "fmt.wan": "",
  "fmt.yi": "",
  "fmt.d": "{n} d",
  "fmt.h": "{n} h",
  "fmt.min": "{n} min",
  "fmt.s": "{n} s",
};
