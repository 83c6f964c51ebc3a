// A large order history for the operator-view benchmarks: N orders over the last DAYS days on
// ACCOUNTS shared accounts of MERCHANTS merchants, written straight into the tables in one
// transaction (a million rows in seconds), with the status mix of a real gateway: most orders
// paid or timed out, a few closed or failed, some reports and notifications beside them. Every
// paid order has its notification (delivered, one attempt); one in 500 is still retrying after
// five failures and one in 1 000 was given up, as the console's attention list reads them.
import { Database } from "bun:sqlite";
import { formatDateTime } from "../src/core/ids.ts";
import { openGateway } from "../src/server/bootstrap.ts";

/** The payer's address of order i: spread as real payers' are; one order in 10 000 from 203.0.113.7 (the console bench's "payer IP"). */
const payerOf = (i: number) => (i % 10_000 === 0 ? "203.0.113.7" : `${1 + ((i * 7919) % 223)}.${(i * 104_729) % 256}.${(i * 1_299_709) % 256}.${1 + (i % 254)}`);

export interface OrderSeed {
  orders: number;
  days: number;
  merchants: number;
  accounts: number;
  now: number;
}

const PAY_TYPES = ["alipay", "wxpay", "qqpay"];

export async function seedOrders(path: string, o: OrderSeed): Promise<void> {
  const gw = openGateway({ db: path });
  for (let m = 0; m < o.merchants; m++) await gw.store.addMerchant({ pid: 1001 + m, name: `Shop ${m + 1}`, secret: "a1b2c3d4e5f60718293a4b5c6d7e8f90", now: o.now });
  const accounts: { id: number; payType: string }[] = [];
  for (let i = 0; i < o.accounts; i++) {
    const payType = PAY_TYPES[i % PAY_TYPES.length]!;
    const a = await gw.store.addChannel({ pid: 0, payType, code: `acc${i}`, name: `${payType} ${i}`, qrcode: `https://qr.example/${i}`, now: o.now });
    accounts.push({ id: a.id, payType });
  }
  gw.store.close();
  const db = new Database(path);
  const insert = db.query(
    `INSERT INTO orders (trade_no, pid, out_trade_no, family, pay_type, name, amount, trade_amount, account_id, status, notify_url,
       created_at, expire_time, paid_at, closed_at, clientip) VALUES (?, ?, ?, 'native', ?, 'VIP', ?, ?, ?, ?, 'http://127.0.0.1:9/n', ?, ?, ?, ?, ?)`,
  );
  const report = db.query(
    `INSERT INTO reports (kind, pid, client, raw, amount, pay_type, outcome, reason, trade_no, created_at)
     VALUES ('amount', ?, 'phone', '{}', ?, ?, ?, ?, ?, ?)`,
  );
  const notification = db.query(
    `INSERT INTO notifications (trade_no, family, url, method, params, status, attempts, next_attempt_at, created_at, delivered_at)
     VALUES (?, 'native', 'http://127.0.0.1:9/n', 'POST', '{}', ?, ?, ?, ?, ?)`,
  );
  const attempt = db.query(
    `INSERT INTO notification_attempts (notification_id, attempted_at, duration_ms, http_status, body, error, acknowledged)
     VALUES (?, ?, 40, ?, ?, '', ?)`,
  );
  const span = o.days * 86400;
  db.transaction(() => {
    for (let i = 0; i < o.orders; i++) {
      const created = o.now - span + Math.floor((i * span) / o.orders);
      const acc = accounts[i % accounts.length]!;
      const amount = 100 + ((i * 7919) % 50000);
      // 37 is prime to 100: every 100 orders keep the mix, spread over the hours of the day.
      const roll = (i * 37) % 100;
      const status = roll < 45 ? 2 : roll < 93 ? 4 : roll < 97 ? 3 : roll < 98 ? 5 : 1;
      // yyyyMMdd (China time) and 12 digits, as ids.ts makes them; i keeps them unique.
      const tradeNo = `${formatDateTime(created).replace(/\D/g, "").slice(0, 8)}${String(i).padStart(12, "0")}`;
      const pid = 1001 + (i % o.merchants);
      const paid = status === 2 ? created + 30 + (i % 200) : null;
      insert.run(tradeNo, pid, `M${i}`, acc.payType, amount, status === 5 ? null : amount - (i % 3), status === 5 ? null : acc.id, status,
        created, created + 900, paid, status === 3 ? created + 60 : null, payerOf(i));
      if (status === 2) {
        report.run(pid, amount - (i % 3), acc.payType, "matched", "paid", tradeNo, paid);
        const failing = i % 500 === 0 ? "pending" : i % 1000 === 1 ? "failed" : null;
        const attempts = failing === "pending" ? 5 : failing === "failed" ? 16 : 1;
        const id = Number(notification.run(tradeNo, failing ?? "delivered", attempts, (paid! + 600) * 1000, paid! * 1000, failing ? null : paid! * 1000 + 40).lastInsertRowid);
        for (let a = 0; a < attempts; a++) attempt.run(id, (paid! + a * 60) * 1000, failing ? 502 : 200, failing ? "bad gateway" : "success", failing ? 0 : 1);
      } else if (roll === 99 && i % 7 === 0) report.run(pid, amount + 1, acc.payType, "unmatched", "no pending order", null, created + 60);
    }
    // Numbers stored as they are (as before migration 041): their days are looked up as they are.
    db.query("UPDATE order_number_key SET legacy_through = MAX(legacy_through, (SELECT substr(MAX(trade_no), 1, 8) FROM orders WHERE length(trade_no) = 20))").run();
  })();
  db.close();
}

if (import.meta.main) {
  const path = process.argv[2] ?? "/tmp/xpay-million.db";
  const t = performance.now();
  await seedOrders(path, { orders: Number(process.env.ORDERS ?? 1_000_000), days: 60, merchants: 5, accounts: 16, now: Math.floor(Date.now() / 1000) });
  console.log(`seeded ${path} in ${Math.round(performance.now() - t)} ms`);
}
