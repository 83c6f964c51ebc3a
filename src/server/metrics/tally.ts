// Counts kept as plain numbers between scrapes and handed to prom-client when Prometheus scrapes
// (the metrics' collect hooks): prom-client hashes the label set on every inc() and observe(),
// which cost a native create 4 % of its CPU time; an addition costs nothing measurable.
import type * as Prom from "prom-client";

/** One counter's label child and what was counted on it since the last scrape. */
export interface Tally {
  n: number;
  readonly child: { inc(n?: number): void };
}

export class Tallies {
  private readonly all: Tally[] = [];

  of(child: { inc(n?: number): void }): Tally {
    const t = { n: 0, child };
    this.all.push(t);
    return t;
  }

  /** Each child gets what was counted on it, once. */
  flush(): void {
    for (const t of this.all) {
      if (t.n === 0) continue;
      t.child.inc(t.n);
      t.n = 0;
    }
  }
}

/** A histogram's observations of one label set since the last scrape: per bucket (not cumulative), sum, count. */
export class HistogramTally {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(readonly bounds: number[]) {
    this.counts = bounds.map(() => 0);
  }

  observe(v: number): void {
    this.sum += v;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) {
      if (v <= this.bounds[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }
}

/** The part of a prom-client 15 histogram's per-label-set record this adds to (lib/histogram.js). */
interface HistogramRecord {
  labels: Record<string, string>;
  bucketValues: Record<number, number>;
  sum: number;
  count: number;
}

/**
 * Adds a tally to the histogram's record of `labels` and empties it. prom-client has no public way
 * to add counts to a bucket; its record is a plain object per label set (`hashMap`), made by
 * `zero()`. test/metrics/tally.test.ts holds the exposition equal to observe()'s.
 */
export function addObservations(h: Prom.Histogram<string>, labels: Record<string, string>, t: HistogramTally): void {
  if (t.count === 0) return;
  const records = (h as unknown as { hashMap: Record<string, HistogramRecord> }).hashMap;
  const find = () => Object.values(records).find((r) => Object.keys(labels).every((k) => r.labels[k] === labels[k]));
  let record = find();
  if (!record) {
    h.zero(labels);
    record = find()!;
  }
  record.sum += t.sum;
  record.count += t.count;
  t.bounds.forEach((b, i) => (record.bucketValues[b] = (record.bucketValues[b] ?? 0) + t.counts[i]!));
  t.counts.fill(0);
  t.sum = 0;
  t.count = 0;
}
