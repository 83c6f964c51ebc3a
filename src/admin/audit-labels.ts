// An audit action key ("session.login") as the page's words ("登录"): i18n/audit-actions.*.ts has a
// label for every key the code writes; a key from elsewhere (a newer version's row) shows as it is.
import { zh } from "./i18n/zh.ts";
import type { TextKey, Translate } from "./i18n/index.ts";

export function actionLabel(t: Translate, action: string): string {
  const key = `act.${action}`;
  return key in zh ? t(key as TextKey) : action;
}
