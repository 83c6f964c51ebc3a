// The console's two languages: Chinese by default, English when the `xpay_lang` cookie says so
// (set by /admin/lang/en). t(key, vars) fills `{name}` placeholders; the result is plain text.
import { grouped } from "../format.ts";
import { en } from "./en.ts";
import { zh } from "./zh.ts";

export type Lang = "zh" | "en";
export type TextKey = keyof typeof zh;
export type Translate = (key: TextKey, vars?: Record<string, string | number>) => string;

export const LANGS: readonly Lang[] = ["zh", "en"];
export const LANG_COOKIE = "xpay_lang";

const DICTS: Record<Lang, Record<TextKey, string>> = { zh, en };

/** Placeholders that name a thing rather than count it: a number there is printed as it is
 *  (merchant 1001, not 1,001). Every other number is grouped (format.ts): "484,452 笔". */
const IDENTIFIERS = new Set(["id", "pid", "owner", "trade_no", "order_id", "out_order_id", "code", "no", "port", "year"]);

const fill = (k: string, v: string | number): string => (typeof v === "number" && !IDENTIFIERS.has(k) ? grouped(v) : String(v));

export function translator(lang: Lang): Translate {
  const dict = DICTS[lang];
  return (key, vars) => {
    const text = dict[key] ?? zh[key] ?? key;
    return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? fill(k, vars[k]!) : m)) : text;
  };
}

export function isLang(v: string | undefined): v is Lang {
  return v === "zh" || v === "en";
}
