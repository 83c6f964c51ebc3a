/** @jsxImportSource @kitajs/html */
// "First steps" on the dashboard of a new gateway (core/admin/first-steps.ts): the steps not done
// yet, each linked to the page that does it; a step disappears once done, the card with the last.
import { allDone, type FirstSteps } from "../../core/admin/first-steps.ts";
import type { TextKey, Translate } from "../i18n/index.ts";

const STEPS: { key: keyof FirstSteps; href: string; label: TextKey; hint: TextKey }[] = [
  { key: "account", href: "/admin/accounts/new", label: "dashboard.step_account", hint: "dashboard.step_account_hint" },
  { key: "phone", href: "/admin/clients/setup", label: "dashboard.step_phone", hint: "dashboard.step_phone_hint" },
  { key: "merchant", href: "/admin/merchants#merchant-add", label: "dashboard.step_merchant", hint: "dashboard.step_merchant_hint" },
  { key: "payment", href: "/admin/orders", label: "dashboard.step_payment", hint: "dashboard.step_payment_hint" },
];

export function FirstStepsCard(p: { steps: FirstSteps; t: Translate }) {
  const { steps, t } = p;
  if (allDone(steps)) return "";
  const done = STEPS.filter((s) => steps[s.key]).length;
  return (
    <section class="card dash-first" id="first-steps">
      <div class="dash-card-head">
        <h2 safe>{t("dashboard.first_steps")}</h2>
        <span class="muted" safe>{t("dashboard.first_steps_done", { n: done, total: STEPS.length })}</span>
      </div>
      <ol class="dash-steps">
        {STEPS.filter((s) => !steps[s.key]).map((s) => (
          <li id={`step-${s.key}`}>
            <a href={s.href} safe>{t(s.label)}</a>
            <span class="hint muted" safe>{t(s.hint)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
