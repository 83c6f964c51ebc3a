/** @jsxImportSource @kitajs/html */
// /admin/settings: every operator setting (core/settings.ts SETTINGS), grouped, each with its
// label, help text, current value and default, in one form. Saving checks every value with the
// setting's own check (`xpay settings set`'s) and writes nothing when any is wrong (422, the
// message under each wrong field); core/settings-change.ts writes, audits and drops the cache.
// Secret settings are never shown: only whether they are set, a field to replace and a box to clear.
import { SETTINGS, type SettingDef, Settings, shownSetting, typedSetting } from "../../core/settings.ts";
import { changeSettings } from "../../core/settings-change.ts";
import { attr, CsrfInput, Notice, PageHead } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { seeOther } from "../http.ts";
import { settingText } from "../i18n/setting-text.ts";
import { page } from "../render.tsx";
import { groupSettings } from "./settings-groups.ts";
import { checkText, choicesOf } from "./settings-problems.ts";

type Errors = Record<string, string>;

function Control(p: { ctx: AdminContext; def: SettingDef; value: string; stored: Settings; error?: string }) {
  const { def, ctx } = p;
  const t = ctx.t;
  const id = `s-${def.key}`;
  const invalid = p.error ? "true" : undefined;
  if (def.secret) {
    const set = p.stored.str(def.key) !== "";
    return (
      <div class="setting-control">
        <span class={set ? "tag tag-ok" : "tag"} data-secret-state={set ? "set" : "unset"} safe>{t(set ? "settings.secret_set" : "settings.secret_unset")}</span>
        <input id={id} name={def.key} type="password" autocomplete="new-password" placeholder={t("settings.secret_replace")} aria-invalid={invalid} />
        {set ? (
          <label class="check">
            <input type="checkbox" name={`${def.key}__clear`} value="1" /> <span safe>{t("settings.secret_clear")}</span>
          </label>
        ) : (
          ""
        )}
      </div>
    );
  }
  const choices = choicesOf(def.check);
  if (choices) {
    const onOff = choices.length === 2 && choices.includes("0") && choices.includes("1");
    return (
      <select id={id} name={def.key} aria-invalid={invalid}>
        {choices.map((c) => <option value={attr(c)} selected={p.value === c} safe>{onOff ? `${c} · ${t(c === "1" ? "settings.choice_on" : "settings.choice_off")}` : c}</option>)}
      </select>
    );
  }
  return <input id={id} name={def.key} type="text" value={attr(p.value)} aria-invalid={invalid} />;
}

function SettingRow(p: { ctx: AdminContext; def: SettingDef; value: string; stored: Settings; error?: string }) {
  const { def, ctx } = p;
  const { label, help } = settingText(ctx.lang, def);
  const changed = !def.secret && p.stored.str(def.key) !== def.default;
  return (
    <div class={changed ? "setting setting-changed" : "setting"} id={`setting-${def.key}`}>
      <div class="setting-text">
        <label for={`s-${def.key}`}>
          <span class="setting-label" safe>{label}</span> <code class="setting-key" safe>{def.key}</code>
        </label>
        <p class="hint" safe>{help}</p>
      </div>
      <div class="setting-input">
        <Control {...p} />
        {p.error ? <p class="field-error" safe>{p.error}</p> : ""}
        {def.secret ? "" : <p class="hint setting-default" safe>{def.default === "" ? ctx.t("settings.default_empty") : ctx.t("settings.default", { value: shownSetting(def, def.default) })}</p>}
      </div>
    </div>
  );
}

async function renderSettings(ctx: AdminContext, o: { form?: URLSearchParams; errors?: Errors; status?: number } = {}): Promise<Response> {
  const stored = new Settings(await ctx.gw.store.getSettings());
  const t = ctx.t;
  const e = o.errors ?? {};
  const bad = Object.keys(e).length;
  const saved = ctx.query.get("saved");
  const groups = groupSettings(SETTINGS);
  const notice = bad ? <Notice kind="error" text={t("settings.fix_errors", { n: bad })} id="settings-notice" />
    : saved === "0" ? <Notice kind="info" text={t("settings.unchanged")} id="settings-notice" />
    : saved && /^\d{1,3}$/.test(saved) ? <Notice kind="ok" text={t("settings.saved", { n: saved })} id="settings-notice" /> : "";
  return page(ctx, {
    title: t("settings.title"),
    status: o.status,
    styles: ["manage.css"],
    children: (
      <section>
        <PageHead title={t("settings.title")} lead={t("settings.intro")} />
        {notice}
        <nav class="settings-nav" aria-label={t("settings.title")}>
          {groups.map((g) => <a href={`#group-${g.id}`} safe>{t(g.label)}</a>)}
        </nav>
        <form method="post" action="/admin/settings" id="settings-form">
          <CsrfInput csrf={ctx.csrf} />
          {groups.map((g) => (
            <div class="card settings-group" id={`group-${g.id}`}>
              <h2 safe>{t(g.label)}</h2>
              {g.defs.map((def) => (
                <SettingRow ctx={ctx} def={def} value={def.secret ? "" : (o.form?.get(def.key) ?? typedSetting(def, stored.str(def.key)))} stored={stored} error={e[def.key]} />
              ))}
            </div>
          ))}
          <div class="save-bar">
            <button class="btn btn-primary" type="submit" id="settings-save" safe>{t("settings.save")}</button>
          </div>
        </form>
      </section>
    ),
  });
}

/** The values the form sends: every plain setting; a secret one only when replaced or cleared. */
function valuesFrom(form: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const def of SETTINGS) {
    const v = form.get(def.key);
    if (def.secret) {
      if (form.get(`${def.key}__clear`) === "1") values[def.key] = "";
      else if (v) values[def.key] = v;
    } else if (v !== null) values[def.key] = v;
  }
  return values;
}

async function save(ctx: AdminContext): Promise<Response> {
  const r = await changeSettings(ctx.gw, ctx.actor, valuesFrom(ctx.form));
  if (r.kind === "saved") return seeOther(`/admin/settings?saved=${r.changed.length}`);
  const errors: Errors = {};
  for (const [key, p] of Object.entries(r.problems)) errors[key] = p.kind === "unknown" ? ctx.t("settings.unknown") : checkText(ctx.t, p.message);
  return renderSettings(ctx, { form: ctx.form, errors, status: 422 });
}

export const settingsPage: AdminPage = {
  nav: { path: "/admin/settings", label: "nav.settings", order: 70 },
  routes: [
    { method: "GET", path: "/admin/settings", handle: (ctx) => renderSettings(ctx) },
    { method: "POST", path: "/admin/settings", handle: save },
  ],
};
