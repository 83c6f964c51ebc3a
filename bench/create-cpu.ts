// CPU time of this process per native create through app.handle, for the in-process comparisons
// (bench/console-indexes.ts, bench/checkout-cpu.ts, bench/metrics-cost.ts): CPU time moves far less with the machine's
// other load than HTTP rates do. The bodies are signed before the run; CONCURRENCY creates are in
// flight so the group commit batches them as under load. `code` is the server code to measure
// (one checkout's modules, so two checkouts can be compared in one process).
export interface ServerCode {
  buildApp(gw: unknown): { handle(req: Request): Promise<Response> };
  openGateway(o: { db: string }): unknown;
  createBodies(n: number, prefix: string, notifyUrl: string): { bodies: string[] };
}

export interface CreateMeter<G> {
  gw: G;
  /** µs of this process's CPU time (user + system) per create, over one batch. */
  batch(): Promise<number>;
}

export function createMeter<G>(code: ServerCode, db: string, name: string, o: { creates: number; batch: number; concurrency: number; answered?: (seconds: number) => void }): CreateMeter<G> {
  const gw = code.openGateway({ db }) as G;
  const app = code.buildApp(gw);
  const bodies = code.createBodies(o.creates, `${name}${Date.now()}-`, "http://127.0.0.1:9/n").bodies;
  let next = 0;
  const one = async () => {
    const started = performance.now();
    const res = await app.handle(new Request("http://127.0.0.1/xpay/order/create", {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: bodies[next++]!,
    }));
    const text = await res.text();
    if (!text.startsWith('{"code":200')) throw new Error(`create failed: ${text.slice(0, 200)}`);
    o.answered?.((performance.now() - started) / 1000);
  };
  return {
    gw,
    async batch() {
      const cpu = process.cpuUsage();
      let left = o.batch;
      await Promise.all(Array.from({ length: o.concurrency }, async () => {
        while (left-- > 0) await one();
      }));
      const d = process.cpuUsage(cpu);
      return (d.user + d.system) / o.batch;
    },
  };
}
