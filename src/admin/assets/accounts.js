// The receiving-account form (pages/account-form.tsx): read the QR code content from an image of
// the collection code, in the browser with jsQR (the image is never uploaded), and keep the
// preview of the QR the payer will see in step with the field. decodeQr is also loaded by the
// tests (module.exports), so the decode they check is this one.
(function () {
  "use strict";

  /** Phone screenshots are large; jsQR is quick at about a thousand pixels a side. */
  var SIDES = [1024, 2048];

  /** The text of the QR code in RGBA pixels, or null. */
  function decodeQr(jsQR, data, width, height) {
    var code = jsQR(data, width, height, { inversionAttempts: "attemptBoth" });
    return code && code.data ? code.data : null;
  }

  /** Width and height to draw an image at so that its longer side is at most `side`. */
  function scaled(width, height, side) {
    var k = Math.min(1, side / Math.max(width, height));
    return { width: Math.max(1, Math.round(width * k)), height: Math.max(1, Math.round(height * k)) };
  }

  if (typeof module === "object" && module.exports) module.exports = { decodeQr: decodeQr, scaled: scaled };
  if (typeof document === "undefined") return;

  function readImage(bitmap) {
    var canvas = document.createElement("canvas");
    var ctx = canvas.getContext("2d", { willReadFrequently: true });
    for (var i = 0; i < SIDES.length; i++) {
      var size = scaled(bitmap.width, bitmap.height, SIDES[i]);
      canvas.width = size.width;
      canvas.height = size.height;
      ctx.fillStyle = "#fff"; // transparent PNGs: dark modules on white, as printed
      ctx.fillRect(0, 0, size.width, size.height);
      ctx.drawImage(bitmap, 0, 0, size.width, size.height);
      var text = decodeQr(window.jsQR, ctx.getImageData(0, 0, size.width, size.height).data, size.width, size.height);
      if (text !== null || Math.max(bitmap.width, bitmap.height) <= SIDES[i]) return text;
    }
    return null;
  }

  function say(input, key, ok) {
    var status = document.getElementById("qr-status");
    if (!status) return;
    status.textContent = input.getAttribute(key) || "";
    status.className = "qr-status " + (ok ? "qr-ok" : "qr-bad");
    status.hidden = false;
  }

  var timer = 0;
  function showPreview(field) {
    var box = document.getElementById("qr-box");
    var img = document.getElementById("qr-preview");
    var none = document.getElementById("qr-preview-none");
    if (!box || !img) return;
    var text = field.value.trim();
    img.hidden = text === "";
    if (none) none.hidden = text !== "";
    if (text !== "") img.src = box.getAttribute("data-preview-url") + "?text=" + encodeURIComponent(text);
  }

  document.addEventListener("change", function (e) {
    var input = e.target;
    if (!(input instanceof HTMLInputElement) || !input.hasAttribute("data-qr-target") || !input.files || !input.files[0]) return;
    var field = document.querySelector(input.getAttribute("data-qr-target"));
    var name = document.getElementById("qr-file-name");
    if (name) name.textContent = input.files[0].name;
    createImageBitmap(input.files[0]).then(function (bitmap) {
      var text = readImage(bitmap);
      if (text === null) return say(input, "data-msg-none", false);
      field.value = text;
      field.removeAttribute("aria-invalid");
      say(input, "data-msg-read", true);
      showPreview(field);
    }, function () {
      say(input, "data-msg-bad", false);
    });
  });

  document.addEventListener("input", function (e) {
    var field = e.target;
    if (!(field instanceof HTMLInputElement) || field.id !== "f-qrcode") return;
    clearTimeout(timer);
    timer = setTimeout(function () { showPreview(field); }, 300);
  });

  document.addEventListener("error", function (e) {
    if (e.target instanceof HTMLImageElement && e.target.id === "qr-preview") e.target.hidden = true;
  }, true);
})();
