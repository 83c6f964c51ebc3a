// One payment never credits two orders: a paid order keeps its payable amount reserved for the
// match window, so a phone that re-sends the same payment (new timestamp, no pay_time) reads
// "already paid" instead of paying the next order that would have taken the same amount.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { harness, type Harness, seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";

let h: Harness;
beforeEach(async () => {
  h = harness();
  await seed(h);
});
afterEach(() => h.close());

test("a re-sent report of a paid amount reads already paid; the next order got another amount and stays pending", async () => {
  const first = await createOrder(h, { money: "13.22" });
  expect(first.trade_amount).toBe("13.22");
  expect((await amountReport(h, 1322)).body.data).toMatchObject({ outcome: "matched", trade_no: first.trade_no });

  h.clock.advance(5);
  const second = await createOrder(h, { money: "13.22" });
  expect(second.trade_amount).toBe("13.21");

  h.clock.advance(5); // the phone sends the same payment again: a new timestamp, no pay_time
  const again = await amountReport(h, 1322);
  expect(again.body.data).toMatchObject({ outcome: "unmatched", trade_no: first.trade_no });
  expect(again.body.data.reason).toContain("already paid");
  expect((await h.gw.store.getOrder(second.trade_no))?.status).toBe(1);
  expect((await h.gw.store.listReports({ outcome: "matched" })).map((r) => r.tradeNo)).toEqual([first.trade_no]);
});

test("the amount is free again once the match window after the payment has passed", async () => {
  const first = await createOrder(h, { money: "13.22" });
  await amountReport(h, 1322);
  h.clock.advance(601); // default match_window 600 s
  const later = await createOrder(h, { money: "13.22" });
  expect(later.trade_amount).toBe("13.22");
  expect(later.trade_no).not.toBe(first.trade_no);
});
