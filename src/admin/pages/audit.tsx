/** @jsxImportSource @kitajs/html */
// GET /admin/audit: the audit log, newest first, filtered by actor, action and dates (pickers and
// quick ranges in the operator's zone, date-filter.tsx), paged by id (the same listAudit as `xpay
// audit list`). Filters are a GET form, so a filtered page is a link; a bad date is a 422.
import { actionLabel, AUDIT_ACTIONS } from "../audit-labels.ts";
import { listAudit } from "../../core/admin/audit.ts";
import { parseDateRange } from "../../core/browse/date-range.ts";
import type { AuditEntry } from "../../core/admin/store.ts";
import { attr, Notice, PageHead, Pager, Time } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { DATE_PROBLEM_TEXT, DateField, QuickRanges, rangedQuery } from "../date-filter.tsx";
import { page } from "../render.tsx";

export const AUDIT_PAGE_SIZE = 50;

const idParam = (v: string | null) => (v !== null && /^\d{1,15}$/.test(v) ? Number(v) : undefined);
const textParam = (v: string | null) => (v ?? "").trim().slice(0, 64) || undefined;

function Change(p: { entry: AuditEntry; t: AdminContext["t"] }) {
  const parts: JSX.Element[] = [];
  if (p.entry.before !== null) parts.push(<div><b safe>{p.t("audit.before")}</b> <span safe>{JSON.stringify(p.entry.before)}</span></div>);
  if (p.entry.after !== null) parts.push(<div><b safe>{p.t("audit.after")}</b> <span safe>{JSON.stringify(p.entry.after)}</span></div>);
  return parts.length ? <div class="change">{parts}</div> : <span class="faint">—</span>;
}

interface Shown {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** The filter's values as query pairs, without the page position. */
function pairs(f: Shown): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of [["user", f.actor], ["action", f.action], ["from", f.from], ["to", f.to]] as const) if (v) out.push([k, v]);
  return out;
}

function link(filter: Shown, bound: { before?: number; after?: number }): string {
  const q = new URLSearchParams(pairs(filter));
  if (bound.before !== undefined) q.set("before", String(bound.before));
  if (bound.after !== undefined) q.set("after", String(bound.after));
  const s = q.toString();
  return s ? `/admin/audit?${s}` : "/admin/audit";
}

async function auditLog(ctx: AdminContext): Promise<Response> {
  const t = ctx.t;
  const { query, rangeError } = rangedQuery(ctx);
  const shownFilter: Shown = { actor: textParam(query.get("user")), action: textParam(query.get("action")), from: textParam(query.get("from")), to: textParam(query.get("to")) };
  const range = parseDateRange(shownFilter.from, shownFilter.to, ctx.tz);
  const errors: { from?: string; to?: string } = Object.fromEntries(Object.entries(range.problems).map(([f, x]) => [f, t(DATE_PROBLEM_TEXT[x!.code])]));
  if (rangeError) errors.from = rangeError;
  const bad = Object.keys(errors).length > 0;
  const filter = { actor: shownFilter.actor, action: shownFilter.action, from: range.from, to: range.to };
  const before = idParam(query.get("before"));
  const after = before === undefined ? idParam(query.get("after")) : undefined;
  const rows = bad ? [] : await listAudit(ctx.gw, { ...filter, beforeId: before, afterId: after, limit: AUDIT_PAGE_SIZE + 1 });
  // One row more than a page says whether there is another page in the direction we came.
  const more = rows.length > AUDIT_PAGE_SIZE;
  const shown = after !== undefined ? rows.slice(rows.length - Math.min(rows.length, AUDIT_PAGE_SIZE)) : rows.slice(0, AUDIT_PAGE_SIZE);
  const newest = shown[0];
  const oldest = shown.at(-1);
  const hasNewer = after !== undefined ? more : before !== undefined && newest !== undefined && (await listAudit(ctx.gw, { ...filter, afterId: newest.id, limit: 1 })).length > 0;
  const hasOlder = after !== undefined ? oldest !== undefined && (await listAudit(ctx.gw, { ...filter, beforeId: oldest.id, limit: 1 })).length > 0 : more;
  return page(ctx, {
    title: t("audit.title"),
    status: bad ? 422 : 200,
    children: (
      <section>
        <PageHead title={t("audit.title")} lead={t("audit.intro")} />
        <form method="get" action="/admin/audit" class="filters" id="audit-filter">
          <div class="field">
            <label for="f-user" safe>{t("audit.filter_user")}</label>
            <input id="f-user" name="user" type="search" value={attr(filter.actor ?? "")} maxlength={64} />
          </div>
          <div class="field">
            <label for="f-action" safe>{t("audit.filter_action")}</label>
            <select id="f-action" name="action">
              <option value="" selected={!filter.action} safe>{t("audit.filter_any_action")}</option>
              {/* An action from an old link that no label knows stays chosen, shown as its key. */}
              {(filter.action && !AUDIT_ACTIONS.includes(filter.action) ? [filter.action, ...AUDIT_ACTIONS] : AUDIT_ACTIONS).map((a) => (
                <option value={attr(a)} selected={a === filter.action} safe>{actionLabel(t, a)}</option>
              ))}
            </select>
          </div>
          <DateField name="from" label={t("filters.from")} value={shownFilter.from} error={errors.from} />
          <DateField name="to" label={t("filters.to")} value={shownFilter.to} error={errors.to} />
          <QuickRanges path="/admin/audit" keep={pairs({ actor: shownFilter.actor, action: shownFilter.action })} from={shownFilter.from} to={shownFilter.to} now={ctx.gw.clock.now()} tz={ctx.tz} t={t} id="audit-ranges" />
          <div class="actions">
            <button class="btn btn-primary" type="submit" safe>{t("audit.filter_apply")}</button>
            <a class="btn" href="/admin/audit" safe>{t("audit.filter_clear")}</a>
          </div>
        </form>
        <p class="small faint" safe>{t("filters.zone", { zone: ctx.tz })}</p>
        {bad ? <Notice kind="error" text={t("audit.fix_filter")} id="filter-error" /> : ""}
        <div class="table-wrap cards">
          <table class="table" id="audit-table">
            <thead>
              <tr>
                <th safe>{t("audit.col_time")}</th>
                <th safe>{t("audit.col_actor")}</th>
                <th safe>{t("audit.col_action")}</th>
                <th safe>{t("audit.col_target")}</th>
                <th safe>{t("audit.col_ip")}</th>
                <th safe>{t("audit.col_change")}</th>
                <th safe>{t("audit.col_reason")}</th>
              </tr>
            </thead>
            <tbody>
              {shown.length === 0 ? (
                <tr>
                  <td colspan="7" class="empty" safe>{t("audit.none")}</td>
                </tr>
              ) : (
                shown.map((e) => (
                  <tr data-id={String(e.id)}>
                    <td class="nowrap c-key" data-label={t("audit.col_time")}><Time at={e.at} tz={ctx.tz} /></td>
                    <td data-label={t("audit.col_actor")} safe>{e.actor}</td>
                    <td class="nowrap c-title" title={attr(e.action)} data-action={attr(e.action)} safe>{actionLabel(t, e.action)}</td>
                    <td class="wrap" data-label={t("audit.col_target")} safe>{e.target}</td>
                    <td class="nowrap mono" data-label={t("audit.col_ip")} safe>{e.ip || "—"}</td>
                    <td class="wrap c-full" data-label={t("audit.col_change")}><Change entry={e} t={t} /></td>
                    <td class={e.reason ? "wrap c-full" : "wrap c-hide"} data-label={t("audit.col_reason")} safe>{e.reason}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <Pager
          newer={hasNewer && newest ? link(shownFilter, { after: newest.id }) : null}
          older={hasOlder && oldest ? link(shownFilter, { before: oldest.id }) : null}
          newerLabel={t("audit.newer")}
          olderLabel={t("audit.older")}
        />
      </section>
    ),
  });
}

export const auditPage: AdminPage = {
  nav: { path: "/admin/audit", label: "nav.audit", order: 80 },
  routes: [{ method: "GET", path: "/admin/audit", handle: auditLog }],
};
