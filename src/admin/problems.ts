// The console's words for the core's credential problems (the CLI words them in English itself).
import { type NameProblem, PASSWORD_MAX, PASSWORD_MIN, type PasswordProblem } from "../core/admin/credentials.ts";
import type { Translate } from "./i18n/index.ts";

export function passwordText(t: Translate, p: PasswordProblem): string {
  return t(`password.${p}`, { n: p === "too_long" ? PASSWORD_MAX : PASSWORD_MIN });
}

export function nameText(t: Translate, p: NameProblem): string {
  return t(`name.${p}`);
}
