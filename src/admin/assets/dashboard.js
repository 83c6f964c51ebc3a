// The dashboard's income charts (served from /admin/assets; the CSP allows no inline script).
// Each <div class="dash-chart" data-chart="{...}"> holds its figures as JSON (pages/dashboard-charts.tsx):
// bars at positions 0..n-1 labelled with the server's local hours or days, so the chart shows the
// operator's time zone whatever the browser's is. Amounts are yuan. The table under each chart
// says the same without script.
(function () {
  "use strict";

  var ACCENT = "#2f5bd3";
  // Grid and axis text follow the console's palette (dark mode redefines --chart-grid and --muted).
  var palette = getComputedStyle(document.documentElement);
  var GRID = palette.getPropertyValue("--chart-grid").trim() || "#eef0f3";
  var AXIS = palette.getPropertyValue("--muted").trim() || "#5f6b7a";

  // Numbers as the server writes them (src/admin/format.ts): grouped with commas; built once.
  var GROUP = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
  var CENTS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

  function yuan(v) {
    return v == null ? "" : "¥" + CENTS.format(v);
  }

  // Axis numbers without noise: 万 and 亿 in Chinese from 10,000 (an axis has little room),
  // k and M in English; below that the grouped number ("2,000", never "2000k").
  function axis(data) {
    return function (v) {
      var a = Math.abs(v);
      if (data.wan) {
        if (a >= 1e8) return GROUP.format(v / 1e8) + " " + data.yi;
        if (a >= 1e4) return GROUP.format(v / 1e4) + " " + data.wan;
      } else {
        if (a >= 1e6) return GROUP.format(v / 1e6) + "M";
        if (a >= 1e4) return GROUP.format(v / 1e3) + "k";
      }
      return GROUP.format(v);
    };
  }

  function draw(el) {
    var data;
    try {
      data = JSON.parse(el.getAttribute("data-chart") || "");
    } catch (e) {
      return;
    }
    if (!window.uPlot || !data || !data.labels || data.labels.length === 0) return;
    var n = data.labels.length;
    var xs = [];
    for (var i = 0; i < n; i++) xs.push(i);
    var height = 220;
    var opts = {
      width: Math.max(el.clientWidth, 200),
      height: height,
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      legend: { show: true, live: true },
      scales: {
        x: { time: false, range: function () { return [-0.5, n - 0.5]; } },
        y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.12 : 1]; } },
      },
      axes: [
        {
          stroke: AXIS,
          size: 30,
          grid: { show: false },
          ticks: { show: false },
          // One label every `step` bars, so labels never overlap on a phone.
          splits: function (u) {
            var room = Math.max(1, Math.floor(u.bbox.width / (window.devicePixelRatio || 1) / 46));
            var step = Math.max(1, Math.ceil(n / room));
            var out = [];
            for (var i = 0; i < n; i += step) out.push(i);
            return out;
          },
          values: function (u, splits) { return splits.map(function (i) { return data.labels[i] || ""; }); },
        },
        { stroke: AXIS, size: 60, grid: { stroke: GRID, width: 1 }, ticks: { show: false }, values: function (u, vals) { return vals.map(axis(data)); } },
      ],
      series: [
        { label: data.x, value: function (u, i) { return i == null ? "" : data.full[i] || ""; } },
        {
          label: data.series,
          value: function (u, v) { return yuan(v); },
          stroke: ACCENT,
          fill: "rgba(47, 91, 211, 0.78)",
          width: 0,
          points: { show: false },
          paths: window.uPlot.paths.bars({ size: [0.7, 36], radius: 0.15 }),
        },
      ],
    };
    el.textContent = "";
    var plot = new window.uPlot(opts, [xs, data.yuan], el);
    // Follow the card's width (window resize, phone rotation).
    if (window.ResizeObserver) {
      var last = el.clientWidth;
      new ResizeObserver(function () {
        var w = el.clientWidth;
        if (w > 0 && w !== last) {
          last = w;
          plot.setSize({ width: Math.max(w, 200), height: height });
        }
      }).observe(el);
    }
  }

  function init() {
    var charts = document.querySelectorAll(".dash-chart[data-chart]");
    for (var i = 0; i < charts.length; i++) draw(charts[i]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
