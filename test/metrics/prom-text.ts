// A strict parser of the Prometheus text exposition format (version 0.0.4), for the tests: it
// throws on anything a Prometheus server would refuse or misread (a sample before its TYPE, a bad
// name or escape, a duplicate series, a histogram whose buckets are not cumulative up to +Inf).

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function parseValue(text: string, line: string): number {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (text === "NaN") return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`bad value in: ${line}`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf("=", i);
    const name = text.slice(i, eq);
    if (eq < 0 || !LABEL.test(name) || text[eq + 1] !== '"') throw new Error(`bad label in: ${line}`);
    let value = "";
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] !== "\\") {
        value += text[j];
        continue;
      }
      const e = text[++j];
      if (e === "\\") value += "\\";
      else if (e === '"') value += '"';
      else if (e === "n") value += "\n";
      else throw new Error(`bad escape in: ${line}`);
    }
    if (j >= text.length) throw new Error(`unterminated label value in: ${line}`);
    if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ",") i++;
    else if (i < text.length) throw new Error(`bad label separator in: ${line}`);
  }
  return labels;
}

const base = (f: Family, sample: string) =>
  f.type === "histogram" ? sample.replace(/_(bucket|sum|count)$/, "") : f.type === "summary" ? sample.replace(/_(sum|count)$/, "") : sample;

export function parsePromText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a line feed");
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) continue; // a plain comment
      const [, kind, name, rest] = m as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`bad metric name: ${line}`);
      const f = families.get(name) ?? { name, type: "untyped" as const, help: "", samples: [] };
      if (kind === "TYPE") {
        if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(rest)) throw new Error(`bad type: ${line}`);
        if (f.samples.length) throw new Error(`TYPE after samples: ${line}`);
        f.type = rest as Family["type"];
      } else f.help = rest;
      families.set(name, f);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line);
    if (!m) throw new Error(`bad sample line: ${line}`);
    const sample: Sample = { name: m[1]!, labels: m[2] ? parseLabels(m[2], line) : {}, value: parseValue(m[3]!, line) };
    const family = [...families.values()].find((f) => base(f, sample.name) === f.name && (f.type === "histogram" || f.type === "summary" || f.name === sample.name));
    if (!family || family.type === "untyped") throw new Error(`sample before its TYPE: ${line}`);
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seen.has(key)) throw new Error(`duplicate series: ${line}`);
    seen.add(key);
    if (family.type === "counter" && !(sample.value >= 0)) throw new Error(`negative counter: ${line}`);
    family.samples.push(sample);
  }
  for (const f of families.values()) if (f.type === "histogram") checkHistogram(f);
  return families;
}

function checkHistogram(f: Family): void {
  const series = new Map<string, Sample[]>();
  for (const s of f.samples) {
    const { le, ...rest } = s.labels;
    const k = JSON.stringify(Object.entries(rest).sort());
    series.set(k, [...(series.get(k) ?? []), s]);
  }
  for (const samples of series.values()) {
    const buckets = samples.filter((s) => s.name === `${f.name}_bucket`);
    const count = samples.find((s) => s.name === `${f.name}_count`);
    if (!count || !samples.some((s) => s.name === `${f.name}_sum`)) throw new Error(`${f.name}: a series without _sum or _count`);
    const les = buckets.map((b) => parseValue(b.labels.le ?? "", f.name));
    if (les.at(-1) !== Infinity) throw new Error(`${f.name}: no +Inf bucket`);
    for (let i = 1; i < buckets.length; i++) {
      if (!(les[i]! > les[i - 1]!)) throw new Error(`${f.name}: buckets out of order`);
      if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${f.name}: buckets not cumulative`);
    }
    if (buckets.at(-1)!.value !== count.value) throw new Error(`${f.name}: +Inf bucket differs from _count`);
  }
}

/** The value of one series (0 when absent: a counter no event moved yet). */
export function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
    }
  }
  return 0;
}
