// GET /admin/lang/:lang?next=/admin/...: remembers the console language in a cookie (a year) and
// goes back. Only a preference, so a GET may set it; `next` is kept inside /admin.
import type { AdminPage } from "../context.ts";
import { safeNext, seeOther, setCookie } from "../http.ts";
import { isLang, LANG_COOKIE } from "../i18n/index.ts";

export const langPage: AdminPage = {
  routes: [
    {
      method: "GET",
      path: "/admin/lang/:lang",
      public: true,
      handle: (ctx) => {
        const lang = ctx.params.lang;
        const next = safeNext(ctx.query.get("next"));
        if (!isLang(lang)) return seeOther(next);
        return seeOther(next, { "set-cookie": setCookie(LANG_COOKIE, lang, { secure: ctx.secure, maxAge: 365 * 86400 }) });
      },
    },
  ],
};
