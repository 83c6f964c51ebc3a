// Every console page, in one list: a new page is one import and one entry here. Its `nav` entry (if
// any) appears in the menu at its `order`; its routes are mounted behind the guard (plugin.ts).
import type { AdminPage } from "../context.ts";
import { accountSlotsPage } from "./account-slots.tsx";
import { accountsPage } from "./accounts.tsx";
import { alertsPage } from "./alerts.tsx";
import { rulesPage } from "./rules.tsx";
import { outboxPage } from "./outbox.tsx";
import { operatorsPage } from "./operators.tsx";
import { backupsPage } from "./backups.tsx";
import { auditPage } from "./audit.tsx";
import { clientPage } from "./client-page.tsx";
import { clientSetupPage } from "./client-setup.tsx";
import { clientsPage } from "./clients.tsx";
import { dashboardPage } from "./dashboard.tsx";
import { langPage } from "./lang.ts";
import { loginPage } from "./login.tsx";
import { merchantsPage } from "./merchants.tsx";
import { ordersPage } from "./orders.ts";
import { reportsPage } from "./reports.ts";
import { sessionsPage } from "./sessions.tsx";
import { settingsPage } from "./settings.tsx";
import { setupPage } from "./setup.tsx";

export const PAGES: readonly AdminPage[] = [
  loginPage,
  setupPage,
  langPage,
  dashboardPage,
  ordersPage,
  reportsPage,
  merchantsPage,
  accountsPage,
  clientsPage,
  clientSetupPage,
  clientPage,
  accountSlotsPage,
  settingsPage,
  alertsPage,
  rulesPage,
  outboxPage,
  operatorsPage,
  backupsPage,
  auditPage,
  sessionsPage,
];
