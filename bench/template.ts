// Checkout template API bodies: /api/order/info by order_id, as the payer's page asks for it.
export const infoBodies = (tradeNos: string[]) => tradeNos.map((t) => `order_id=${t}`);
export const infoOk = (status: number, body: string) => status === 200 && body.startsWith('{"subject"'); // errors are {code, message, data}
