/** @jsxImportSource @kitajs/html */
// The merchant page's first card: what its developer needs to connect (the pid and each wire
// family's base URL under this gateway's public address), its income today / 7 / 30 days, and
// links to its orders. The income cell of the merchants list is the same component.
import { apiBases } from "../../core/api-bases.ts";
import type { MerchantIncome } from "../../core/stats/merchant-income.ts";
import type { AdminContext } from "../context.ts";
import type { Translate } from "../i18n/index.ts";
import { yuan } from "./order-bits.tsx";

const PERIODS = [["today", "delivery.income_today"], ["last7", "delivery.income_7"], ["last30", "delivery.income_30"]] as const;

/** Three lines: today, 7 days, 30 days; each amount with its count. */
export function IncomeCell(p: { income: MerchantIncome; t: Translate }) {
  return (
    <dl class="income-cell">
      {PERIODS.map(([key, label]) => (
        <div>
          <dt safe>{p.t(label)}</dt>
          <dd>
            <span class="num" safe>{yuan(p.income[key].amount)}</span> <span class="faint" safe>{p.t("delivery.income_count", { count: p.income[key].count })}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function ApiBox(p: { ctx: AdminContext; pid: number; income: MerchantIncome }) {
  const { ctx, pid } = p;
  const t = ctx.t;
  return (
    <div class="card-grid" id="merchant-overview">
      <section class="card" id="merchant-api">
        <h2 safe>{t("delivery.api_heading")}</h2>
        <p class="muted" safe>{t("delivery.api_hint")}</p>
        <dl class="api-list">
          <div>
            <dt safe>{t("delivery.api_pid")}</dt>
            <dd class="mono" safe>{String(pid)}</dd>
          </div>
          {apiBases(ctx.gw.baseUrl, pid).map((b) => (
            <div>
              <dt safe>{t(`delivery.api_${b.family}`)}</dt>
              <dd><code class="mono" safe>{b.url}</code></dd>
            </div>
          ))}
        </dl>
      </section>
      <section class="card" id="merchant-income">
        <h2 safe>{t("delivery.income_heading")}</h2>
        <IncomeCell income={p.income} t={t} />
        <p>
          <a class="btn btn-small" href={`/admin/orders?pid=${pid}`} safe>{t("delivery.orders_link")}</a>{" "}
          <a class="btn btn-small" href={`/admin/orders?pid=${pid}&status=paid`} safe>{t("delivery.orders_paid_link")}</a>
        </p>
      </section>
    </div>
  );
}
