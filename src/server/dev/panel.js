/* xpay dev (test mode) only: the cashier page's simulate panel. It calls the same
 * POST /dev/orders/{trade_no}/{pay|expire|fail} a merchant's CI calls; the cashier's own script
 * then sees the new status on its next poll (every 2 s), exactly as after a real payment. */
(function () {
  'use strict';
  var panel = document.getElementById('xpay-dev-panel');
  var bootEl = document.getElementById('xpay-boot');
  if (!panel || !bootEl) return;
  var boot;
  try { boot = JSON.parse(bootEl.textContent || '{}'); } catch (e) { return; }
  var result = document.getElementById('xpay-dev-result');
  var buttons = panel.querySelectorAll('button[data-dev-action]');
  var DONE = { pay: '已模拟支付成功（与真实付款同一路径）。', expire: '订单已过期；页面即将显示订单已超时。', fail: '已上报一笔金额不符的付款（多付 ¥0.01）：未匹配，订单仍待支付，商户不会收到通知。' };

  function setBusy(busy) {
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = busy;
  }

  function run(action) {
    setBusy(true);
    result.textContent = '处理中…';
    var url = (boot.base_path || '') + '/dev/orders/' + encodeURIComponent(boot.trade_no) + '/' + action;
    fetch(url, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } }).then(function (res) {
      return res.json().catch(function () { return null; }).then(function (body) {
        if (res.ok && body && body.code === 200) {
          var notified = action === 'pay' ? (body.data && body.data.notification_queued ? '商户通知随即发出。' : '此订单没有 notify_url，不发通知。') : '';
          result.textContent = DONE[action] + notified;
          panel.setAttribute('data-dev-done', action);
          if (action === 'fail') setBusy(false);
          return;
        }
        result.textContent = (body && body.message) || ('请求失败（HTTP ' + res.status + '）');
        setBusy(false);
      });
    }, function () {
      result.textContent = '网络异常，请重试';
      setBusy(false);
    });
  }

  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener('click', function (ev) { run(ev.currentTarget.getAttribute('data-dev-action')); });
  }
})();
