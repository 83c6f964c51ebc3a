// Repeated identical notification failures fold into one timeline entry (core/browse/timeline-fold.ts):
// the rule on hand-made events (what folds, what ends or splits a run), then on the real rows of an
// order whose merchant refused 13 deliveries in a row, and the order's page rendering it in both
// languages with every attempt behind a <details>.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { foldRepeatedFailures } from "../../src/core/browse/timeline-fold.ts";
import type { TimelineEvent } from "../../src/core/browse/timeline.ts";
import { orderDetail } from "../../src/core/browse/order-detail.ts";
import { seed } from "../helpers.ts";
import { amountReport, createOrder } from "../report/util.ts";
import { type AdminHarness, adminHarness } from "../admin/support.ts";

const refused = (atMs: number, extra: Partial<TimelineEvent["detail"]> = {}): TimelineEvent => ({
  atMs, kind: "notify_attempt", detail: { http_status: null, answer: "", error: "connect ECONNREFUSED 127.0.0.1:9", acknowledged: false, duration_ms: 3, ...extra },
});
const other = (atMs: number, kind: TimelineEvent["kind"]): TimelineEvent => ({ atMs, kind, detail: {} });
const kinds = (events: TimelineEvent[]) => events.map((e) => (e.kind === "notify_failures" ? `failures×${e.detail.count}` : e.kind));

describe("the fold rule", () => {
  test("a run of identical failures is one entry at the first one's time, with first, last, count and the attempts", () => {
    const run = [1000, 2000, 4000, 8000].map((t) => refused(t, { duration_ms: t / 1000 }));
    const out = foldRepeatedFailures([other(0, "created"), other(500, "notify_queued"), ...run]);
    expect(kinds(out)).toEqual(["created", "notify_queued", "failures×4"]);
    expect(out[2]).toMatchObject({ atMs: 1000, detail: { count: 4, first_at_ms: 1000, last_at_ms: 8000, http_status: null, error: "connect ECONNREFUSED 127.0.0.1:9", answer: "" } });
    expect(out[2]!.folded).toEqual(run); // every attempt is still there, durations included
  });

  test("one failure alone, successes and differing failures stay as they are", () => {
    expect(kinds(foldRepeatedFailures([refused(1)]))).toEqual(["notify_attempt"]);
    const ok = (t: number) => refused(t, { http_status: 200, answer: "success", error: "", acknowledged: true });
    expect(kinds(foldRepeatedFailures([ok(1), ok(2), ok(3)]))).toEqual(["notify_attempt", "notify_attempt", "notify_attempt"]);
    // Another error, status or answer is another failure: a new run, nothing hidden behind the first's text.
    const mixed = [refused(1), refused(2), refused(3, { error: "timeout after 10000 ms" }), refused(4, { error: "timeout after 10000 ms" }),
      refused(5, { http_status: 500, error: "", answer: "fail" }), refused(6, { http_status: 502, error: "", answer: "fail" }), refused(7, { http_status: 502, error: "", answer: "bad" })];
    expect(kinds(foldRepeatedFailures(mixed))).toEqual(["failures×2", "failures×2", "notify_attempt", "notify_attempt", "notify_attempt"]);
  });

  test("anything between two failures ends the run; a success ends it too", () => {
    const out = foldRepeatedFailures([refused(1), refused(2), other(3, "operator"), refused(4), refused(5), refused(6),
      refused(7, { http_status: 200, answer: "success", error: "", acknowledged: true }), refused(8)]);
    expect(kinds(out)).toEqual(["failures×2", "operator", "failures×3", "notify_attempt", "notify_attempt"]);
  });

  test("the minimum is a parameter; the input is not changed", () => {
    const input = [refused(1), refused(2)];
    expect(kinds(foldRepeatedFailures(input, 3))).toEqual(["notify_attempt", "notify_attempt"]);
    expect(kinds(foldRepeatedFailures(input))).toEqual(["failures×2"]);
    expect(kinds(input)).toEqual(["notify_attempt", "notify_attempt"]);
  });
});

describe("an order whose merchant refused 13 deliveries", () => {
  let h: AdminHarness;
  beforeEach(async () => {
    h = await adminHarness();
    await seed(h);
  });
  afterEach(() => h.close());

  /** A paid order and 13 refused attempts, an hour apart, recorded the way the worker records them. */
  async function refusedThirteenTimes(): Promise<{ tradeNo: string; first: number; last: number }> {
    const o = await createOrder(h, { notify_url: "http://127.0.0.1:9/n" });
    expect((await amountReport(h, 1000)).body.data.outcome).toBe("matched");
    const n = (await h.gw.store.getNotification(o.trade_no))!;
    const first = h.clock.nowMs() + 1000;
    for (let i = 0; i < 13; i++) {
      h.clock.advance(i === 0 ? 1 : 3600);
      await h.gw.store.recordNotificationAttempt(n.id, {
        attempt: { attemptedAt: h.clock.nowMs(), durationMs: 2 + i, httpStatus: null, body: "", error: "connect ECONNREFUSED 127.0.0.1:9", acknowledged: false },
        status: "pending", nextAttemptAt: h.clock.nowMs() + 3_600_000,
      });
    }
    return { tradeNo: o.trade_no, first, last: h.clock.nowMs() };
  }

  test("orderDetail's timeline holds one folded entry for the 13", async () => {
    const { tradeNo, first, last } = await refusedThirteenTimes();
    const d = (await orderDetail(h.gw, tradeNo))!;
    expect(kinds(d.timeline)).toEqual(["created", "allocated", "report", "paid", "notify_queued", "failures×13"]);
    expect(d.timeline.at(-1)!.detail).toMatchObject({ count: 13, first_at_ms: first, last_at_ms: last });
  });

  test("the order's page shows it once, in Chinese and in English, every attempt behind <details>", async () => {
    const { tradeNo } = await refusedThirteenTimes();
    const { cookie } = await h.session(); // the harness's own session went idle during those 12 hours
    const zh = await (await h.get(`/admin/orders/${tradeNo}`, { cookie })).text();
    const entries = [...zh.matchAll(/<li class="ev[^"]*" data-kind="([a-z_]+)"/g)].map((m) => m[1]);
    expect(entries).toEqual(["created", "allocated", "report", "paid", "notify_queued", "notify_failures"]);
    expect(zh).toMatch(/<span>通知失败 13 次，最近一次<\/span> <time datetime="[^"]+" title="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d<\/time>/);
    expect(zh).toContain("<span>首次</span>");
    expect(zh.match(/connect ECONNREFUSED 127\.0\.0\.1:9/g)).toHaveLength(1); // the error once, not 13 times
    expect(zh).toContain('<details class="ev-folded"><summary>查看全部 13 次</summary>');
    const folded = zh.slice(zh.indexOf('<details class="ev-folded">'), zh.indexOf("</details>"));
    expect(folded.match(/<li>/g)).toHaveLength(13);
    expect(folded).toContain("14 毫秒"); // the last attempt's own duration
    const en = await (await h.get(`/admin/orders/${tradeNo}`, { cookie: `${cookie}; xpay_lang=en` })).text();
    expect(en).toContain("<span>Notification failed 13 times, last</span>");
    expect(en).toContain("<summary>All 13 attempts</summary>");
    expect(en).toContain("<span>First</span>");
  });
});
