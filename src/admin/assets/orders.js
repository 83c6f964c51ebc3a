// The orders and reports pages' browser code (served from /admin/assets; the CSP allows no inline
// script): a candidate order's "pick" button copies its number into the assign form's field, and
// the orders list's header box ticks every row.
// Without script the operator types the number; the form works the same.
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var button = e.target instanceof Element ? e.target.closest("[data-fill]") : null;
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-fill"));
    if (!field) return;
    field.value = button.getAttribute("data-value") || "";
    field.removeAttribute("aria-invalid");
    var next = document.getElementById(button.getAttribute("data-focus") || "");
    (next || field).focus();
  });
  // The orders list: <input data-select-all="trade_no"> ticks or clears every row's box of that name.
  document.addEventListener("change", function (e) {
    var all = e.target instanceof Element ? e.target.closest("[data-select-all]") : null;
    if (!all) return;
    var boxes = document.querySelectorAll('input[type="checkbox"][name="' + all.getAttribute("data-select-all") + '"]');
    for (var i = 0; i < boxes.length; i++) boxes[i].checked = all.checked;
  });
})();
