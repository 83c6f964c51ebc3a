// A refusal from the core (core/problem.ts) in the page's language: the text key `problem.<code>`
// with the problem's parameters. A code this console has no text for (a newer core) shows the
// core's English rather than nothing; test/admin/machine-texts.test.ts holds every code the core
// can produce to a text in both languages.
import type { Problem } from "../core/problem.ts";
import type { TextKey, Translate } from "./i18n/index.ts";
import { zh } from "./i18n/zh.ts";

export function problemText(p: Problem, t: Translate): string {
  const key = `problem.${p.code}`;
  return key in zh ? t(key as TextKey, fields(p.args)) : p.text;
}

/** The CLI's flags as the console's forms name their fields: --base-url -> base_url. */
function fields(args: Problem["args"]): Problem["args"] {
  const out: Problem["args"] = {};
  for (const [k, v] of Object.entries(args)) out[k] = typeof v === "string" ? v.replace(/--([a-z][a-z-]*)/g, (_, f: string) => f.replace(/-/g, "_")) : v;
  return out;
}
