// Why an operator's input was refused, as a code with parameters beside the English text the CLI
// prints. The console words the code in the page's language (admin/problem-text.ts: a key
// `problem.<code>` in i18n/problems.{zh,en}.ts), so a refusal from the core never reaches the
// Chinese console in English. The English stays where the check is, next to what it checks.

export interface Problem {
  /** `<area>.<what>`, e.g. `rule.title_pattern`; the console's text key is `problem.<code>`. */
  code: string;
  /** Values the texts name (a flag, a name, a limit); never a secret. */
  args: Record<string, string | number>;
  /** The English text: the CLI's words. */
  text: string;
}

export function problem(code: string, text: string, args: Record<string, string | number> = {}): Problem {
  return { code, args, text };
}
