// Counting between scrapes in plain numbers (src/server/metrics/tally.ts) exposes what prom-client's
// own inc() and observe() would have: the same /metrics text, across several scrapes.
import { expect, test } from "bun:test";
import * as prom from "prom-client";
import { addObservations, HistogramTally, Tallies } from "../../src/server/metrics/tally.ts";

const BUCKETS = [0.001, 0.01, 0.1, 1];
/**
 * The exposition's lines, sorted (label sets may come in another order; Prometheus reads each line
 * alone), sums to 9 decimals (added in another order, floating point differs in the last digit).
 */
const lines = async (r: prom.Registry) =>
  (await r.metrics()).split("\n").map((l) => (/_sum\{/.test(l) ? l.replace(/ ([\d.e+-]+)$/, (_, v) => ` ${Number(v).toFixed(9)}`) : l)).sort();

test("a histogram fed by tallies at scrape time reads as one fed by observe()", async () => {
  const direct = new prom.Registry();
  const tallied = new prom.Registry();
  const d = new prom.Histogram({ name: "h", help: "h", labelNames: ["route"], buckets: BUCKETS, registers: [direct] });
  const tallies = new Map([["native", new HistogramTally(BUCKETS)], ["admin", new HistogramTally(BUCKETS)]]);
  new prom.Histogram({
    name: "h", help: "h", labelNames: ["route"], buckets: BUCKETS, registers: [tallied],
    collect() {
      for (const [route, t] of tallies) addObservations(this, { route }, t);
    },
  });
  const values = [0.0005, 0.001, 0.004, 0.05, 0.5, 2, 7, 0.0009];
  for (const round of [0, 1, 2]) {
    values.forEach((v, i) => {
      const route = i % 3 === 0 ? "admin" : "native";
      d.labels({ route }).observe(v * (round + 1));
      tallies.get(route)!.observe(v * (round + 1));
    });
    expect(await lines(tallied)).toEqual(await lines(direct)); // each scrape, and the ones after it
  }
});

test("counter tallies reach their label children at a scrape, once", async () => {
  const direct = new prom.Registry();
  const tallied = new prom.Registry();
  const d = new prom.Counter({ name: "c", help: "c", labelNames: ["k"], registers: [direct] });
  const tallies = new Tallies();
  const t = new prom.Counter({ name: "c", help: "c", labelNames: ["k"], registers: [tallied], collect: () => tallies.flush() });
  const a = tallies.of(t.labels({ k: "a" }));
  const b = tallies.of(t.labels({ k: "b" }));
  for (const round of [1, 2]) {
    for (let i = 0; i < 5 * round; i++) {
      a.n++;
      d.labels({ k: "a" }).inc();
    }
    b.n += 250;
    d.labels({ k: "b" }).inc(250);
    expect(await lines(tallied)).toEqual(await lines(direct));
  }
});
