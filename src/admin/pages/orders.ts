// The orders area of the console: the list (orders-list.tsx), an order's page (order-page.tsx)
// and its actions (order-actions.tsx); the list's totals, export and bulk actions (orders-bulk.tsx).
import type { AdminPage } from "../context.ts";
import { ORDER_ACTION_ROUTES } from "./order-actions.tsx";
import { showOrder } from "./order-page.tsx";
import { ORDER_LIST_ROUTES } from "./orders-bulk.tsx";
import { listOrders } from "./orders-list.tsx";

export const ordersPage: AdminPage = {
  nav: { path: "/admin/orders", label: "nav.orders", order: 20 },
  routes: [
    { method: "GET", path: "/admin/orders", handle: (ctx) => listOrders(ctx) },
    ...ORDER_LIST_ROUTES,
    { method: "GET", path: "/admin/orders/:trade_no", handle: showOrder },
    ...ORDER_ACTION_ROUTES,
  ],
};
