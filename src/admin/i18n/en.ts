// Console text in English: the same keys as zh.ts (tsc refuses a missing one).
import type { TextKey } from "./index.ts";
import { accountsEn } from "./accounts.en.ts";
import { dashboardEn } from "./dashboard.en.ts";
import { merchantsEn } from "./merchants.en.ts";
import { ordersEn } from "./orders.en.ts";
import { reportsEn } from "./reports.en.ts";
import { settingsEn } from "./settings.en.ts";
import { clientsEn } from "./clients.en.ts";
import { keyedEn } from "./keyed.en.ts";
import { deliveryEn } from "./delivery.en.ts";
import { sendErrorEn } from "./send-error.en.ts";
import { auditActionsEn } from "./audit-actions.en.ts";
import { problemsEn } from "./problems.en.ts";
import { whyEn } from "./why.en.ts";
import { formatEn } from "./format.en.ts";
import { olistEn } from "./olist.en.ts";
import { testpayEn } from "./testpay.en.ts";
import { alertsEn } from "./alerts.en.ts";
import { rulesEn } from "./rules.en.ts";
import { outboxEn } from "./outbox.en.ts";
import { filtersEn } from "./filters.en.ts";
import { operatorsEn } from "./operators.en.ts";
import { backupsEn } from "./backups.en.ts";

export const en: Record<TextKey, string> = {
  "app.name": "xpay console",
  "app.skip": "Skip to content",
  "app.signed_in_as": "Signed in as",
  "app.logout": "Log out",
  "app.lang_switch": "中文",
  "app.menu": "Menu",
  "app.loading": "Loading…",
  "app.request_failed": "The request failed; reload the page and try again",

  "nav.dashboard": "Dashboard",
  "nav.orders": "Orders",
  "nav.reports": "Reports",
  "nav.merchants": "Merchants",
  "nav.accounts": "Accounts",
  "nav.clients": "Monitors",
  "nav.settings": "Settings",
  "nav.audit": "Audit log",
  "nav.sessions": "Sessions",

  "error.forbidden": "Request refused: wrong origin or an expired form. Reload the page and try again.",
  "error.unauthorized": "Your session has ended; please log in again.",
  "error.not_found": "Page not found",
  "error.not_found_hint": "Check the address, or use the menu.",
  "error.internal": "Internal error; please try again later.",
  "error.bad_input": "The request holds a character no form can send (NUL).",
  "error.too_large": "The request is too large.",
  "error.back_home": "Back to the dashboard",

  "name.bad_name": "User names are 1-32 characters: letters, digits and . _ @ -, starting with a letter or digit.",
  "name.reserved_name": "That name is reserved (cli, system, anonymous); choose another.",
  "password.too_short": "The password needs at least {n} characters.",
  "password.too_long": "The password may have at most {n} characters.",
  "password.same_as_name": "The password must not be the user name.",
  "password.too_simple": "The password must not be one or two characters repeated.",
  "password.mismatch": "The two passwords differ.",
  "password.wrong_current": "The current password is wrong.",
  "password.rules": "At least {n} characters; a sentence or a password manager's long password works well.",

  "login.title": "Log in",
  "login.heading": "Log in to the xpay console",
  "login.user": "User name",
  "login.password": "Password",
  "login.submit": "Log in",
  "login.bad_credentials": "Wrong user name or password.",
  "login.throttled": "Too many attempts; try again in {n} seconds.",
  "login.busy": "Too many logins at once; try again in {n} seconds.",
  "login.required": "Enter your user name and password.",
  "login.logged_out": "You have logged out.",
  "login.expired": "Your session has expired; please log in again.",
  "login.forgot": "Forgot the password? Reset it on the server with:",

  "setup.title": "First run",
  "setup.heading": "Create the first operator",
  "setup.intro": "This database has no operator yet. Once you create one, this setup link stops working; log in with the name and password from then on.",
  "setup.user": "User name",
  "setup.password": "Password",
  "setup.repeat": "Password again",
  "setup.submit": "Create and log in",
  "setup.bad_token": "This setup link is invalid or has expired. Restart xpay serve for a new link, or run xpay admin add --user NAME on the server.",
  "setup.operator_exists": "An operator exists already; the setup link no longer works. Please log in.",
  "setup.go_login": "Go to the login page",

  "dashboard.title": "Dashboard",
  "dashboard.welcome": "Welcome, {name}",
  "dashboard.this_login": "Logged in at",
  "dashboard.from_ip": "from {ip}",

  "audit.title": "Audit log",
  "audit.intro": "Every action taken in the console or on the command line: who, when, from where, what changed.",
  "audit.filter_user": "Actor",
  "audit.filter_action": "Action",
  "audit.filter_any_action": "Any action",
  "audit.filter_apply": "Filter",
  "audit.filter_clear": "Clear",
  "audit.fix_filter": "The filter has a mistake; see the messages below the fields.",
  "audit.col_time": "Time",
  "audit.col_actor": "Actor",
  "audit.col_action": "Action",
  "audit.col_target": "Target",
  "audit.col_ip": "IP",
  "audit.col_change": "Change",
  "audit.col_reason": "Reason",
  "audit.none": "No entries match.",
  "audit.newer": "← Newer",
  "audit.older": "Older →",
  "audit.before": "before",
  "audit.after": "after",

  "sessions.title": "Sessions",
  "sessions.intro": "Browsers logged in to your account. Revoke any you do not recognise, and change your password.",
  "sessions.col_created": "Logged in",
  "sessions.col_used": "Last used",
  "sessions.col_ip": "IP (login / last)",
  "sessions.col_agent": "Browser",
  "sessions.current": "This session",
  "sessions.revoke": "Revoke",
  "sessions.revoke_confirm": "Revoke this session?",
  "sessions.revoked": "Session revoked.",
  "sessions.gone": "That session no longer exists.",
  "sessions.everywhere": "Log out everywhere",
  "sessions.everywhere_hint": "This browser included; you will need to log in again.",
  "sessions.everywhere_confirm": "Log out every session, this one included?",
  "sessions.password_heading": "Change password",
  "sessions.password_hint": "Every other session is logged out when the password changes.",
  "sessions.password_current": "Current password",
  "sessions.password_new": "New password",
  "sessions.password_repeat": "New password again",
  "sessions.password_submit": "Change password",
  "sessions.password_changed": "Password changed; {n} other session(s) logged out.",
  "sessions.failures_heading": "Failed logins (last 24 hours)",
  "sessions.failures_hint": "Failed logins on every user name, counted per minute, user name, browser and address. Refused: turned away without a password check (too many attempts, or the login queue was full). A browser that logged in as a user before is never locked out by someone guessing that user's password.",
  "sessions.failures_none": "No failed login in the last 24 hours.",
  "sessions.col_minute": "Minute",
  "sessions.col_user": "User name",
  "sessions.col_browser": "Browser",
  "sessions.col_failed": "Wrong password",
  "sessions.col_refused": "Refused",
  "sessions.browser_known": "logged in before",
  "sessions.browser_stranger": "unknown",
  ...ordersEn,
  ...reportsEn,
  ...merchantsEn,
  ...accountsEn,
  ...settingsEn,
  ...dashboardEn,
  ...clientsEn,
  ...keyedEn,
  ...deliveryEn,
  ...sendErrorEn,
  ...olistEn,
  ...formatEn,
  ...whyEn,
  ...problemsEn,
  ...auditActionsEn,
  ...testpayEn,
  ...alertsEn,
  ...rulesEn,
  ...outboxEn,
  ...filtersEn,
  ...operatorsEn,
  ...backupsEn,
};
