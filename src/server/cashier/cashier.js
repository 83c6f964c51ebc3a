/* xpay hosted cashier page. Plain browser script, no framework and no build step: page.ts inlines it.
 * Flow: /api/order/info first; a finished order stops there. An order without a pay type shows a
 * chooser (pay-types, then pay-type) and reloads info. A pending order loads qrcode and audio, then
 * polls status (2 s, 10 s while the tab is hidden) until it is paid, closed or timed out. */
(function () {
  'use strict';

  var POLL_MS = 2000;
  var POLL_HIDDEN_MS = 10000;
  var RETRY_MS = 3000;
  var FINAL_TEXT = { 2: '订单已支付', 3: '订单已关闭', 4: '订单已超时', 5: '订单创建失败' };
  var FINAL_HINT = {
    3: '订单已关闭，如需继续购买请返回商户重新下单。',
    4: '订单已超过支付时间，请勿再付款；如需继续购买请返回商户重新下单。',
    5: '订单创建失败，请返回商户重新下单或联系客服。'
  };
  var BADGE_TEXT = { alipay: '支', wxpay: '微', qqpay: 'Q' };

  var boot = readBoot();
  var orderId = String(boot.trade_no || '');
  var basePath = String(boot.base_path || '');

  var order = null;          // last /info answer
  var expireAt = 0;          // unix seconds
  var clockSkew = 0;         // server clock minus ours, ms (from the Date header)
  var finished = false;      // paid, closed, timed out or failed: nothing more to ask the server
  var choosing = false;
  var schemeUrl = '';        // app scheme from /qrcode, for is_auto_open
  var autoOpen = false;      // first status said is_auto_open = 1
  var countdownTimer = 0;
  var polling = false, pollTimer = 0, pollBusy = false, pollErrors = 0, sawStatus = false;
  var player = null;

  function $(id) { return document.getElementById(id); }
  function show(id, visible) { var el = $(id); if (el) el.hidden = !visible; }
  function setText(id, text) { var el = $(id); if (el) { el.textContent = text || ''; el.hidden = !text; } }

  function readBoot() {
    try { return JSON.parse(document.getElementById('xpay-boot').textContent) || {}; } catch (e) { return {}; }
  }

  function setState(text, kind) {
    var el = $('state');
    el.textContent = text;
    el.className = 'state state-' + kind;
  }

  // ---- server calls -------------------------------------------------------------------------

  function ApiError(message, status) { this.message = message; this.status = status; }

  // Every template call is a JSON POST with ?_time to defeat CDN caches. Errors arrive as
  // {code, message, data} with HTTP status = code; status 0 means the network failed.
  function api(name, body) {
    var url = basePath + '/api/order/' + name + '?_time=' + Date.now();
    return fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store'
    }).then(function (res) {
      noteServerClock(res);
      return res.json().catch(function () { return null; }).then(function (json) {
        var failed = !res.ok || !json || (typeof json.code === 'number' && json.code !== 200);
        if (failed) throw new ApiError((json && (json.message || json.msg)) || ('请求失败（HTTP ' + res.status + '）'), res.status);
        // pay-types and pay-type answer in an envelope; info, qrcode, audio and status are flat.
        return json.code === 200 && json.data && typeof json.data === 'object' ? json.data : json;
      });
    }, function () {
      throw new ApiError('网络异常，请检查网络连接', 0);
    });
  }

  // The countdown must agree with the server, not with a phone whose clock is minutes off.
  function noteServerClock(res) {
    var date = res.headers && res.headers.get('Date');
    var t = date ? Date.parse(date) : NaN;
    if (!isNaN(t)) clockSkew = Math.abs(t - Date.now()) > 3000 ? t - Date.now() : 0;
  }

  // ---- formatting and safety ----------------------------------------------------------------

  function pad2(n) { return (n < 10 ? '0' : '') + n; }

  function yuan(cents) {
    var n = Math.round(Number(cents));
    if (!isFinite(n) || n < 0) return '';
    return Math.floor(n / 100) + '.' + pad2(n % 100);
  }

  function toCents(text) {
    var m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(text || '').trim());
    return m ? Number(m[1]) * 100 + Number(((m[2] || '') + '00').slice(0, 2)) : NaN;
  }

  // Links come from the server, but a script URL must never reach href or location.
  function safeUrl(url) {
    var raw = String(url || '').trim();
    var probe = raw.replace(/[\u0000-\u0020\u007f]/g, '');
    if (!raw || /^(javascript|vbscript|data|file|blob):/i.test(probe)) return '';
    return raw;
  }

  function isMobile() {
    var coarse = window.matchMedia && window.matchMedia('(pointer: coarse)').matches;
    return !!coarse || /Android|iPhone|iPad|iPod|Mobile|MicroMessenger|AlipayClient|QQ\//i.test(navigator.userAgent || '');
  }

  function badge(payType, text, logoUrl) {
    var logo = safeUrl(logoUrl);
    if (logo) {
      var img = document.createElement('img');
      img.className = 'badge badge-img';
      img.src = logo;
      img.alt = '';
      return img;
    }
    var span = document.createElement('span');
    span.className = 'badge badge-' + (BADGE_TEXT[payType] ? payType : 'other');
    span.textContent = BADGE_TEXT[payType] || String(text || payType || '付').charAt(0);
    span.setAttribute('aria-hidden', 'true');
    return span;
  }

  // ---- rendering ----------------------------------------------------------------------------

  function renderOrder(info) {
    setText('subject', info.subject || '订单支付');
    setText('content', info.content);
    setText('service-qq', info.service_qq ? '客服QQ：' + info.service_qq : '');
    setText('pay-tip', info.pay_tip);
    var tip = info.pay_account_tip || {};
    var cover = Number(tip.tip_cover) === 1 && !!tip.tip;
    setText('account-tip', cover ? '' : tip.tip);
    setText('qr-cover-text', cover ? tip.tip : '');
    show('qr-cover', cover);
    renderPayType(info.pay_type, info.pay_type_text, info.pay_type_logo);
    renderAmount('', Number(info.status) === 1);
  }

  function renderPayType(payType, text, logoUrl) {
    var logo = $('pay-logo');
    logo.textContent = '';
    if (payType) logo.appendChild(badge(payType, text, logoUrl));
    logo.hidden = !payType;
    $('pay-type-text').textContent = payType ? (text || payType) : '收银台';
  }

  // actual: the yuan string from /qrcode when known. The payer must send exactly this amount; when it
  // differs from the order amount (a unique amount slot), say so loudly.
  function renderAmount(actual, pending) {
    var amount = Number(order.amount) || 0;
    var trade = Number(order.trade_amount) || 0;
    var pay = actual || yuan(trade > 0 ? trade : amount);
    $('amount').textContent = '¥' + pay;
    var payCents = actual ? toCents(actual) : trade;
    var differs = pending && ((trade > 0 && trade !== amount) || (!isNaN(payCents) && payCents > 0 && payCents !== amount));
    var diff = $('amount-diff');
    if (differs) {
      if (!diff) {
        diff = document.createElement('p');
        diff.id = 'amount-diff';
        diff.className = 'amount-diff';
        $('amount').parentNode.insertBefore(diff, $('order-amount'));
      }
      diff.textContent = '请务必支付 ¥' + pay + '（与订单金额不同，请按此金额付款）';
    } else if (diff) {
      diff.parentNode.removeChild(diff);
    }
    setText('order-amount', differs ? '订单金额 ¥' + yuan(amount) : '');
  }

  function hidePayment() {
    ['pay-box', 'pay-types', 'countdown-line', 'open-app', 'qr'].forEach(function (id) { show(id, false); });
    $('qr').removeAttribute('src');
    var diff = $('amount-diff');
    if (diff) diff.parentNode.removeChild(diff);
    setText('order-amount', '');
  }

  function showResult(icon, kind, text) {
    hidePayment();
    $('result-icon').textContent = icon;
    $('result-icon').className = 'result-icon result-' + kind;
    setText('result-text', text);
    show('result', true);
  }

  // ---- order lifecycle ----------------------------------------------------------------------

  function finish() {
    finished = true;
    stopPolling();
    clearInterval(countdownTimer);
  }

  function showFinal(status, data) {
    if (status === 2) return showPaid(data, '订单已支付');
    finish();
    setState(FINAL_TEXT[status] || '订单状态异常', 'closed');
    showResult('!', 'closed', FINAL_HINT[status] || '请返回商户重新下单。');
  }

  function showPaid(data, text) {
    finish();
    setState(text, 'ok');
    showResult('✓', 'ok', '付款已确认，感谢您的支付。');
    var url = safeUrl(data.return_uri);
    if (!url) return setText('redirect-tip', '您可以关闭本页面。');
    var link = $('return-link');
    link.href = url;
    link.hidden = false;
    var left = Math.max(0, Math.floor(Number(data.pay_payed_wait_time) || 0));
    if (left <= 0) { location.href = url; return; }
    var timer = setInterval(tick, 1000);
    tick();
    function tick() {
      if (left <= 0) { clearInterval(timer); location.href = url; return; }
      setText('redirect-tip', left + ' 秒后自动返回商户页面');
      left--;
    }
  }

  function loadInfo() {
    if (!orderId) return setState('订单号缺失，请返回商户重新下单', 'error');
    return api('info', { order_id: orderId }).then(function (info) {
      order = info;
      renderOrder(info);
      var status = Number(info.status);
      if (status !== 1) return showFinal(status, info);
      startCountdown(info.expire_time);
      if (!info.pay_type) return showChooser();
      return startPayment();
    }, function (err) {
      if (err.status === 0) {
        setState('网络异常，正在重试…', 'error');
        setTimeout(loadInfo, RETRY_MS);
        return;
      }
      setState(err.message, 'error');
      $('subject').textContent = '无法加载订单';
    });
  }

  function showChooser() {
    setState('请选择支付方式', 'pending');
    var box = $('pay-types');
    box.hidden = false;
    box.textContent = '正在加载支付方式…';
    return api('pay-types', { order_id: orderId }).then(function (list) {
      if (finished) return;
      box.textContent = '';
      list = Array.isArray(list) ? list : [];
      if (!list.length) box.textContent = '暂无可用的支付方式，请联系商户。';
      list.forEach(function (item) {
        var btn = document.createElement('button');
        btn.type = 'button';
        btn.className = 'pay-type';
        btn.setAttribute('data-pay-type', item.pay_type);
        btn.appendChild(badge(item.pay_type, item.pay_type_text, item.pay_type_logo));
        btn.appendChild(document.createTextNode(item.pay_type_text || item.pay_type));
        btn.addEventListener('click', function () { choose(item.pay_type); });
        box.appendChild(btn);
      });
    }, function (err) {
      if (finished) return;
      box.textContent = '';
      setState(err.status === 0 ? '网络异常，正在重试…' : err.message, 'error');
      if (err.status === 0) setTimeout(showChooser, RETRY_MS);
    });
  }

  function choose(payType) {
    if (choosing || finished) return;
    choosing = true;
    var buttons = $('pay-types').querySelectorAll('button');
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    setState('正在生成付款信息…', 'loading');
    api('pay-type', { order_id: orderId, pay_type: payType }).then(function () {
      choosing = false;
      show('pay-types', false);
      return loadInfo();
    }, function (err) {
      choosing = false;
      for (var i = 0; i < buttons.length; i++) buttons[i].disabled = false;
      setState(err.message || '选择支付方式失败，请重试', 'error');
    });
  }

  function startPayment() {
    show('pay-types', false);
    show('pay-box', true);
    setState('等待支付', 'pending');
    var name = order.pay_type_text || '支付应用';
    $('scan-hint').textContent = isMobile() ? '可截图保存二维码，在' + name + '中扫码付款' : '请使用' + name + '扫一扫付款';
    loadAudio();
    return loadQrcode().then(startPolling);
  }

  function loadQrcode() {
    return api('qrcode', { order_id: orderId }).then(renderQrcode, function (err) {
      if (finished) return;
      setText('qr-msg', err.status === 0 ? '二维码加载失败，正在重试…' : err.message);
      if (err.status === 0) setTimeout(loadQrcode, RETRY_MS);
    });
  }

  function renderQrcode(q) {
    if (finished) return;
    var qr = $('qr');
    var src = safeUrl(q.qrcode);
    if (src) { qr.src = src; qr.hidden = false; }
    setText('qr-msg', src ? '' : '暂无付款二维码，请使用下方按钮付款');
    if (q.actual_amount) renderAmount(String(q.actual_amount), true);
    setText('account', q.actual_account ? '收款账户：' + q.actual_account + (q.actual_account_type ? '（' + q.actual_account_type + '）' : '') : '');
    schemeUrl = safeUrl(q.scheme);
    var link = schemeUrl || safeUrl(q.uri);
    var open = $('open-app');
    if (link && isMobile()) {
      open.href = link;
      open.textContent = '打开' + (order.pay_type_text || '支付应用') + '支付';
      open.hidden = false;
    }
    if (autoOpen && schemeUrl) openAppOnce(schemeUrl);
  }

  // Only when the payer asks: an autoplaying voice on a payment page is a bad surprise.
  function loadAudio() {
    api('audio', { order_id: orderId }).then(function (a) {
      var url = safeUrl(a.audio_url);
      if (Number(a.audio_enable) !== 1 || !url || finished) return;
      var btn = $('audio-play');
      if (a.audio_content) btn.title = a.audio_content;
      btn.hidden = false;
      btn.onclick = function () {
        if (!player) { player = new Audio(url); player.volume = 0.6; }
        if (!player.paused) { player.pause(); player.currentTime = 0; return; }
        var p = player.play();
        if (p && p.catch) p.catch(function () {});
      };
    }, function () { /* audio is optional */ });
  }

  // is_auto_open opens the wallet once per page (and once per tab session, so a reload does not loop).
  function openAppOnce(url) {
    autoOpen = false;
    var key = 'xpay-auto-opened-' + orderId;
    try { if (sessionStorage.getItem(key)) return; sessionStorage.setItem(key, '1'); } catch (e) { /* private mode */ }
    location.href = url;
  }

  // ---- countdown and polling ----------------------------------------------------------------

  function startCountdown(expire) {
    if (Number(expire) > 0) expireAt = Number(expire);
    clearInterval(countdownTimer);
    show('countdown-line', true);
    tickCountdown();
    if (!finished) countdownTimer = setInterval(tickCountdown, 1000);
  }

  function tickCountdown() {
    if (!expireAt || finished) return;
    var left = Math.max(0, Math.floor((expireAt * 1000 - (Date.now() + clockSkew)) / 1000));
    $('countdown').textContent = pad2(Math.floor(left / 60)) + ':' + pad2(left % 60);
    if (left <= 0) expired();
  }

  // Show the timeout at once; one last status call still catches a payment that landed at the wire.
  function expired() {
    showFinal(4, {});
    api('status', { order_id: orderId }).then(function (s) {
      if (Number(s.status) === 2) showPaid(s, '支付成功');
    }, function () {});
  }

  function startPolling() {
    if (finished || polling) return;
    polling = true;
    schedulePoll(0);
  }

  function stopPolling() {
    polling = false;
    clearTimeout(pollTimer);
  }

  function schedulePoll(delay) {
    clearTimeout(pollTimer);
    if (!polling) return;
    if (delay === undefined) delay = document.hidden ? POLL_HIDDEN_MS : Math.min(POLL_MS * Math.pow(2, pollErrors), POLL_HIDDEN_MS);
    pollTimer = setTimeout(pollOnce, delay);
  }

  function pollOnce() {
    if (!polling || pollBusy) return;
    pollBusy = true;
    api('status', { order_id: orderId }).then(function (s) {
      pollBusy = false;
      pollErrors = 0;
      handleStatus(s);
      schedulePoll();
    }, function () {
      pollBusy = false;
      pollErrors = Math.min(pollErrors + 1, 3);   // quietly: the page keeps its last known state
      schedulePoll();
    });
  }

  function handleStatus(s) {
    if (!polling) return;
    var status = Number(s.status);
    if (Number(s.expire_time) > 0) expireAt = Number(s.expire_time);
    if (!sawStatus) {
      sawStatus = true;
      autoOpen = status === 1 && Number(s.is_auto_open) === 1;
      if (autoOpen && schemeUrl) openAppOnce(schemeUrl);
    }
    if (status === 2) return showPaid(s, '支付成功');
    if (status === 3 || status === 4 || status === 5) return showFinal(status, s);
  }

  document.addEventListener('visibilitychange', function () {
    if (!document.hidden && polling) schedulePoll(0);
  });

  $('qr-cover-close').addEventListener('click', function () { show('qr-cover', false); });

  loadInfo();
})();
