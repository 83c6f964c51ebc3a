// The part of autocannon's API the bench uses (the package ships no types).
declare module "autocannon" {
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: Request[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  /** What autocannon(o) returns: the run's result, and its events while it runs. */
  interface Instance extends Promise<Result> {
    /** Every answer: its status, its size and its time in milliseconds (with the fraction). */
    on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): Instance;
  }
  function autocannon(o: Options): Instance;
  namespace autocannon {
    export type { Instance, Options, Request, Result };
  }
  export default autocannon;
}
