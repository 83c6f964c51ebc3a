// Links xpay hands out that several families share: the QR image endpoint (cashier `qrcode`,
// hash `url_qrcode`).
export const QR_PATH = "/qrcode";
export const QR_MAX_TEXT = 1024;

export function qrImageUrl(baseUrl: string, text: string, format: "png" | "svg" = "png"): string {
  return `${baseUrl}${QR_PATH}?${new URLSearchParams({ text, format })}`;
}
