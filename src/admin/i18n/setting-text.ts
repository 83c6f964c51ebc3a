// The label and help text of an operator setting in the console's language: Chinese from
// settings.zh.ts, English labels from settings.en.ts with SETTINGS' own help text.
import type { SettingDef } from "../../core/settings.ts";
import type { Lang } from "./index.ts";
import { SETTING_LABEL_EN } from "./settings.en.ts";
import { SETTING_TEXT_ZH } from "./settings.zh.ts";

export function settingText(lang: Lang, def: SettingDef): { label: string; help: string } {
  if (lang === "zh") return SETTING_TEXT_ZH[def.key] ?? { label: def.key, help: def.help };
  return { label: SETTING_LABEL_EN[def.key] ?? def.key, help: def.help };
}
