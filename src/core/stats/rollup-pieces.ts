// How a range of time is read from the income rollup (migration 025): the whole UTC days in it from
// the day table, the whole UTC hours around them from the hour table, and the minutes at either end
// that no whole hour covers from orders themselves (by their created_at and paid_at indexes: at
// most two hours of orders). A local day of any time zone, a 30-day period, "now + 1" at the end of
// a range: each is exact, and the rows read follow the days and hours, not the orders.

/** [from, to) in unix seconds. */
export type Span = readonly [number, number];

export interface RollupPieces {
  /** Whole UTC days: read from order_rollup_day. */
  days: Span[];
  /** Whole UTC hours: read from order_rollup_hour. */
  hours: Span[];
  /** Less than an hour at each end: counted from orders. */
  orders: Span[];
}

const HOUR = 3600;
const DAY = 86400;
const up = (t: number, w: number) => Math.ceil(t / w) * w;
const down = (t: number, w: number) => Math.floor(t / w) * w;

/** The pieces of [from, to); empty pieces are left out. */
export function rollupPieces(from: number, to: number): RollupPieces {
  const out: RollupPieces = { days: [], hours: [], orders: [] };
  const add = (list: Span[], f: number, t: number) => {
    if (f < t) list.push([f, t]);
  };
  const h1 = up(from, HOUR);
  const h2 = down(to, HOUR);
  if (h1 >= h2) {
    add(out.orders, from, to);
    return out;
  }
  add(out.orders, from, h1);
  const d1 = up(h1, DAY);
  const d2 = down(h2, DAY);
  if (d1 < d2) {
    add(out.hours, h1, d1);
    add(out.days, d1, d2);
    add(out.hours, d2, h2);
  } else {
    add(out.hours, h1, h2);
  }
  add(out.orders, h2, to);
  return out;
}
