// The console's own browser code (served from /admin/assets, never inline: the CSP allows 'self'
// scripts only). It adds what htmx attributes cannot say: confirmations on plain forms and a short
// message when an htmx request fails. No eval, no inline handlers.
(function () {
  "use strict";

  var flashTimer = 0;
  function flash(text) {
    var el = document.getElementById("flash");
    if (!el || !text) return;
    el.textContent = text;
    el.hidden = false;
    clearTimeout(flashTimer);
    flashTimer = setTimeout(function () { el.hidden = true; }, 6000);
  }

  // <form data-confirm="..."> asks before it submits (htmx forms use hx-confirm instead).
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!(form instanceof HTMLFormElement)) return;
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) e.preventDefault();
  }, true);

  // An htmx request answered with an error the page does not swap in (403, 500, network down):
  // say so instead of doing nothing. 401 carries HX-Redirect to the login page, which htmx follows.
  function failed(e) {
    var xhr = e.detail && e.detail.xhr;
    if (xhr && xhr.status === 401) return;
    flash(document.body.getAttribute("data-request-failed"));
  }
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);

  // <button data-copy="#id"> copies the text of an element (secrets shown once, setup links).
  document.addEventListener("click", function (e) {
    var target = e.target instanceof Element ? e.target.closest("[data-copy]") : null;
    if (!target || !navigator.clipboard) return;
    var source = document.querySelector(target.getAttribute("data-copy"));
    if (source) navigator.clipboard.writeText(source.textContent || "").then(function () { flash(target.getAttribute("data-copied")); });
  });
})();
