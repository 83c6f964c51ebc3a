/** @jsxImportSource @kitajs/html */
// /admin/backups: a backup now into the folder `xpay serve --backup-dir` schedules into
// (core/backup-files.ts backupIntoFolder, the function the schedule and `xpay backup --dir` use;
// audited `backup.run`), and xpay's backups there, each downloadable: streamed from the file
// (never read into memory), only names of xpay's own pattern in that folder, audited
// `backup.download` (a backup holds every secret). Without --backup-dir the page says how to set
// one: the console does not pick a folder on the server by itself.
import { statSync } from "node:fs";
import { basename } from "node:path";
import { audit } from "../../core/admin/audit.ts";
import { BACKUP_NAME, backupIntoFolder, listBackups } from "../../core/backup-files.ts";
import { backupStatus } from "../../core/backup-status.ts";
import { CsrfInput, Notice, PageHead } from "../components.tsx";
import type { AdminContext, AdminPage } from "../context.ts";
import { errorAnswer, page } from "../render.tsx";
import { TimeMs } from "./order-bits.tsx";

const hours = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${Math.round(ms / 60_000)} min`);
const size = (bytes: number) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`);

async function listPage(ctx: AdminContext, o: { notice?: { kind: "ok" | "error"; text: string }; status?: number } = {}): Promise<Response> {
  const t = ctx.t;
  const s = backupStatus(ctx.gw);
  const files = s ? listBackups(s.dir).reverse() : [];
  return page(ctx, {
    title: t("backups.title"),
    status: o.status,
    styles: ["manage.css"],
    children: (
      <section>
        <PageHead title={t("backups.title")} lead={t("backups.intro")} />
        {o.notice ? <Notice kind={o.notice.kind} id="backups-notice" text={o.notice.text} /> : ""}
        {!s ? <Notice kind="warn" id="backups-no-dir" text={t("backups.none_dir")} /> : (
          <div>
            <div class="card" id="backups-state">
              <p class="mono small" safe>{t("backups.dir", { dir: s.dir, every: hours(s.everyMs), keep: s.keep })}</p>
              <p class="small muted"><span safe>{t("backups.next")}</span> <TimeMs ms={s.next} tz={ctx.tz} /></p>
              {s.last && !s.last.ok ? <Notice kind="error" text={t("backups.last_failed", { error: s.last.error })} /> : ""}
              <form method="post" action="/admin/backups">
                <CsrfInput csrf={ctx.csrf} />
                <button class="btn btn-primary" type="submit" id="backups-run" safe>{t("backups.run")}</button>
              </form>
            </div>
            <p class="small muted" safe>{t("backups.secret_note")}</p>
            <div class="table-wrap cards">
              <table class="table" id="backups-table">
                <thead><tr><th safe>{t("backups.col_file")}</th><th safe>{t("backups.col_at")}</th><th class="num" safe>{t("backups.col_size")}</th><th></th></tr></thead>
                <tbody>
                  {files.length === 0 ? <tr><td colspan="4" class="empty" safe>{t("backups.empty")}</td></tr> : files.map((f) => (
                    <tr data-backup={f.name}>
                      <td class="mono small c-title c-full" safe>{f.name}</td>
                      <td class="nowrap" data-label={t("backups.col_at")}><TimeMs ms={f.at} tz={ctx.tz} /></td>
                      <td class="num" data-label={t("backups.col_size")} safe>{size(statSync(f.path, { throwIfNoEntry: false })?.size ?? 0)}</td>
                      <td class="c-actions"><a class="btn btn-small" href={`/admin/backups/${f.name}`} download={f.name} safe>{t("backups.download")}</a></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )}
      </section>
    ),
  });
}

async function run(ctx: AdminContext): Promise<Response> {
  const s = backupStatus(ctx.gw);
  if (!s) return listPage(ctx, { notice: { kind: "error", text: ctx.t("backups.none_dir") }, status: 409 });
  try {
    const r = await backupIntoFolder(ctx.gw.store, s.dir, s.keep);
    await audit(ctx.gw, { actor: ctx.actor, action: "backup.run", target: `backup:${basename(r.file)}`, after: { dir: s.dir, file: basename(r.file), ms: r.ms, removed: r.removed.map((p) => basename(p)) } });
    return listPage(ctx, { notice: { kind: "ok", text: ctx.t("backups.done", { file: basename(r.file), ms: r.ms, removed: r.removed.length }) } });
  } catch (e) {
    const error = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ").slice(0, 300);
    return listPage(ctx, { notice: { kind: "error", text: ctx.t("backups.failed", { error }) }, status: 500 });
  }
}

async function download(ctx: AdminContext): Promise<Response> {
  const s = backupStatus(ctx.gw);
  const name = ctx.params.name ?? "";
  // Only xpay's own names, looked up in the listing: no path from the URL ever reaches the disk.
  const file = s && BACKUP_NAME.test(name) ? listBackups(s.dir).find((b) => b.name === name) : undefined;
  if (!file) return errorAnswer(ctx, 404, ctx.t("backups.not_found"));
  await audit(ctx.gw, { actor: ctx.actor, action: "backup.download", target: `backup:${name}`, after: { dir: s!.dir, file: name } });
  return new Response(Bun.file(file.path), {
    headers: { "content-type": "application/octet-stream", "content-disposition": `attachment; filename="${name}"` },
  });
}

export const backupsPage: AdminPage = {
  nav: { path: "/admin/backups", label: "backups.nav", order: 78 },
  routes: [
    { method: "GET", path: "/admin/backups", handle: (ctx) => listPage(ctx) },
    { method: "POST", path: "/admin/backups", handle: run },
    { method: "GET", path: "/admin/backups/:name", handle: download },
  ],
};
