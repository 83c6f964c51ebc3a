/** @jsxImportSource @kitajs/html */
// The orders an unmatched payment could be assigned to (core reportDetail's candidates), with what
// the choice needs: pay type, the account the order is on, when it was created, and how far its
// payable amount is from the money that arrived ("+¥0.02", "相同"). The 选择 button fills the form.
import type { Order } from "../../core/types.ts";
import { attr, Time } from "../components.tsx";
import { money } from "../format.ts";
import type { Translate } from "../i18n/index.ts";
import { payTypeName, StatusBadge, yuan } from "./order-bits.tsx";

/** The order's payable amount against the payment: "相同", "+¥0.02" (the order asks more), "-¥1.00". */
export function amountGap(t: Translate, tradeAmount: number | null, paid: number): string {
  if (tradeAmount === null) return "—";
  const d = tradeAmount - paid;
  return d === 0 ? t("reports.gap_same") : `${d > 0 ? "+" : "-"}${money(Math.abs(d))}`;
}

export function Candidates(p: { orders: Order[]; paid: number; accounts: Map<number, string>; now: number; tz: string; t: Translate }) {
  const { t } = p;
  return (
    <div class="table-wrap">
      <table class="table" id="candidates">
        <thead>
          <tr>
            <th safe>{t("reports.c_trade_no")}</th>
            <th class="num" safe>{t("reports.c_trade_amount_gap")}</th>
            <th safe>{t("reports.c_pay_type")}</th>
            <th safe>{t("reports.c_account")}</th>
            <th safe>{t("reports.c_status")}</th>
            <th safe>{t("reports.c_created")}</th>
            <th safe>{t("reports.c_out_trade_no")}</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {p.orders.map((o) => (
            <tr data-trade-no={o.tradeNo}>
              <td class="nowrap mono"><a href={`/admin/orders/${o.tradeNo}`} safe>{o.tradeNo}</a></td>
              {/* The distance sits under the amount, so a phone sees both without scrolling the table. */}
              <td class="num nowrap">
                <span safe>{yuan(o.tradeAmount)}</span>
                <small class={`gap${o.tradeAmount === p.paid ? " gap-same" : ""}`} data-gap safe>{amountGap(t, o.tradeAmount, p.paid)}</small>
              </td>
              <td class="nowrap" safe>{payTypeName(t, o.payType)}</td>
              <td safe>{o.accountId === null ? "—" : `#${o.accountId} ${p.accounts.get(o.accountId) ?? ""}`.trim()}</td>
              <td class="nowrap"><StatusBadge order={o} now={p.now} t={t} /></td>
              <td class="nowrap"><Time at={o.createdAt} tz={p.tz} /></td>
              <td class="mono" safe>{o.outTradeNo}</td>
              <td>
                <button type="button" class="btn btn-small" data-fill="f-trade_no" data-focus="f-reason" data-value={attr(o.tradeNo)} safe>{t("reports.pick")}</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
