// The reports area of the console: the list (reports-list.tsx) and a report's page with the
// assign form (report-page.tsx).
import type { AdminPage } from "../context.ts";
import { reportsPageRoutes } from "./report-page.tsx";
import { listReports } from "./reports-list.tsx";

export const reportsPage: AdminPage = {
  nav: { path: "/admin/reports", label: "nav.reports", order: 30 },
  routes: [{ method: "GET", path: "/admin/reports", handle: listReports }, ...reportsPageRoutes],
};
