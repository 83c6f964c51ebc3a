// Changing operator settings, shared by `xpay settings set` and the console's settings page: every
// value is checked by its SETTINGS entry first and nothing is written when any is wrong; then the
// changed ones are written, audited (`settings.set` with before and after; a secret setting only as
// "(set)" / "(empty)", by its `secret` flag rather than by its name, so a switch named
// notify_block_private keeps its 0 and 1) and this process's settings cache is dropped, so the
// server that made the change follows at once (other processes within a second, as always).
import { type Actor, audit } from "./admin/audit.ts";
import type { Gateway } from "./gateway.ts";
import { refreshGroups } from "./clients/keyed.ts";
import { settingDef, Settings, shownSetting, storedSetting } from "./settings.ts";

export type SettingProblem = { kind: "unknown" } | { kind: "invalid"; message: string };

export type ChangeSettingsResult = { kind: "saved"; changed: string[] } | { kind: "refused"; problems: Record<string, SettingProblem> };

/** What the audit log may show of a stored value: a secret setting only says whether it is set; an amount its ¥. */
function shown(key: string, value: string): string {
  const def = settingDef(key);
  if (!def) return value;
  return def.secret ? (value === "" ? "(empty)" : "(set)") : shownSetting(def, value);
}

/** `typed` is what the operator typed: a money setting in yuan (settings.ts `money`), stored in cents. */
export async function changeSettings(gw: Gateway, actor: Actor, typed: Record<string, string>): Promise<ChangeSettingsResult> {
  const problems: Record<string, SettingProblem> = {};
  for (const [key, value] of Object.entries(typed)) {
    const def = settingDef(key);
    const message = def ? def.check?.(value) : null;
    if (!def) problems[key] = { kind: "unknown" };
    else if (message) problems[key] = { kind: "invalid", message };
  }
  if (Object.keys(problems).length > 0) return { kind: "refused", problems };
  const values = Object.fromEntries(Object.entries(typed).map(([k, v]) => [k, storedSetting(settingDef(k)!, v)]));
  const current = new Settings(await gw.store.getSettings());
  const changed = Object.keys(values).filter((k) => current.str(k) !== values[k]);
  for (const key of changed) await gw.store.setSetting(key, values[key]!);
  gw.forgetSettings();
  // Whether merchants' AppSecret reports count decides which accounts one report could mean.
  if (changed.includes("report_merchant_secret")) await refreshGroups(gw);
  if (changed.length > 0) {
    await audit(gw, {
      actor, action: "settings.set", target: changed.length === 1 ? `setting:${changed[0]}` : "settings",
      before: Object.fromEntries(changed.map((k) => [k, shown(k, current.str(k))])),
      after: Object.fromEntries(changed.map((k) => [k, shown(k, values[k]!)])),
      vouched: changed,
    });
  }
  return { kind: "saved", changed };
}
