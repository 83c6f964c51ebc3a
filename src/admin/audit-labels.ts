// An audit action key ("session.login") as the page's words ("登录"): i18n/audit-actions.*.ts has a
// label for every key the code writes; a key from elsewhere (a newer version's row) shows as it is.
import { zh } from "./i18n/zh.ts";
import type { TextKey, Translate } from "./i18n/index.ts";

export function actionLabel(t: Translate, action: string): string {
  const key = `act.${action}`;
  return key in zh ? t(key as TextKey) : action;
}

/** Every action key the code writes (the labelled ones), for the audit page's action choice. */
export const AUDIT_ACTIONS: string[] = Object.keys(zh)
  .filter((k) => k.startsWith("act."))
  .map((k) => k.slice(4));
