// Just enough browser to run cashier.js under bun:test: elements from the rendered page by id, a
// scripted fetch for /api/order/*, a manual clock for timers, location, sessionStorage. No real
// browser is available here; this checks the script's flow, not its looks.
import { renderCashierPage } from "../../src/server/cashier/page.ts";
import js from "../../src/server/cashier/cashier.js" with { type: "text" };

type Listener = () => void;

export class FakeElement {
  id = "";
  hidden = false;
  className = "";
  src = "";
  href = "";
  title = "";
  type = "";
  disabled = false;
  onclick: Listener | null = null;
  parentNode: FakeElement | null = null;
  children: FakeElement[] = [];
  private ownText = "";
  private attrs = new Map<string, string>();
  private listeners: Listener[] = [];

  constructor(
    readonly tagName: string,
    private readonly doc: FakeDocument,
  ) {}

  get textContent(): string {
    return this.ownText + this.children.map((c) => c.textContent).join("");
  }
  set textContent(value: string) {
    for (const child of this.children) this.doc.detach(child);
    this.children = [];
    this.ownText = String(value);
  }

  setAttribute(name: string, value: string): void {
    this.attrs.set(name, String(value));
    if (name === "src") this.src = String(value);
  }
  getAttribute(name: string): string | null {
    if (name === "src") return this.src || null;
    return this.attrs.get(name) ?? null;
  }
  removeAttribute(name: string): void {
    this.attrs.delete(name);
    if (name === "src") this.src = "";
  }

  appendChild(child: FakeElement): FakeElement {
    return this.insertBefore(child, null);
  }
  insertBefore(child: FakeElement, before: FakeElement | null): FakeElement {
    child.parentNode = this;
    const at = before ? this.children.indexOf(before) : -1;
    if (at >= 0) this.children.splice(at, 0, child);
    else this.children.push(child);
    this.doc.attach(child);
    return child;
  }
  removeChild(child: FakeElement): FakeElement {
    this.children = this.children.filter((c) => c !== child);
    child.parentNode = null;
    this.doc.detach(child);
    return child;
  }

  querySelectorAll(tag: string): FakeElement[] {
    const out: FakeElement[] = [];
    const walk = (el: FakeElement) => {
      for (const c of el.children) {
        if (c.tagName === tag.toUpperCase()) out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }

  addEventListener(type: string, fn: Listener): void {
    if (type === "click") this.listeners.push(fn);
  }
  click(): void {
    if (this.disabled) return;
    for (const fn of this.listeners) fn();
    this.onclick?.();
  }
}

export class FakeDocument {
  hidden = false;
  private byId = new Map<string, FakeElement>();
  private listeners = new Map<string, Listener[]>();

  getElementById(id: string): FakeElement | null {
    return this.byId.get(id) ?? null;
  }
  createElement(tag: string): FakeElement {
    return new FakeElement(tag.toUpperCase(), this);
  }
  createTextNode(text: string): FakeElement {
    const node = new FakeElement("#text", this);
    node.textContent = text;
    return node;
  }
  addEventListener(type: string, fn: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  dispatch(type: string): void {
    for (const fn of this.listeners.get(type) ?? []) fn();
  }
  attach(el: FakeElement): void {
    if (el.id) this.byId.set(el.id, el);
    for (const c of el.children) this.attach(c);
  }
  detach(el: FakeElement): void {
    if (el.id && this.byId.get(el.id) === el) this.byId.delete(el.id);
    for (const c of el.children) this.detach(c);
  }

  /** Every element with an id in the rendered page, flat under one container. */
  static fromHtml(html: string): FakeDocument {
    const doc = new FakeDocument();
    const root = doc.createElement("main");
    for (const m of html.matchAll(/<(\w+)\b([^>]*?)\sid="([^"]+)"([^>]*)>/g)) {
      const el = doc.createElement(m[1]!);
      el.id = m[3]!;
      el.hidden = /\shidden\b/.test(`${m[2]} ${m[4]}`);
      root.appendChild(el);
    }
    const boot = /id="xpay-boot">([\s\S]*?)<\/script>/.exec(html)![1]!;
    doc.getElementById("xpay-boot")!.textContent = boot;
    return doc;
  }
}

/** Manual clock: timers fire only inside advance(), in time order, with fetches settled between. */
/** Where every fake clock starts, in unix seconds (for expire_time in scripted answers). */
export const START_SECONDS = Date.UTC(2024, 0, 1, 12, 0, 0) / 1000;

export class FakeClock {
  now = START_SECONDS * 1000;
  private seq = 0;
  private timers = new Map<number, { at: number; fn: Listener; every: number }>();

  setTimeout = (fn: Listener, ms = 0) => this.add(fn, ms, 0);
  setInterval = (fn: Listener, ms = 0) => this.add(fn, ms, Math.max(1, ms));
  clear = (id: number) => void this.timers.delete(id);

  private add(fn: Listener, ms: number, every: number): number {
    const id = ++this.seq;
    this.timers.set(id, { at: this.now + Math.max(0, ms), fn, every });
    return id;
  }

  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    await settle();
    for (;;) {
      let next: [number, { at: number; fn: Listener; every: number }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      const [id, t] = next;
      this.now = t.at;
      if (t.every) t.at += t.every;
      else this.timers.delete(id);
      t.fn();
      await settle();
    }
    this.now = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 6; i++) await Bun.sleep(0);
}

export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const NETWORK_DOWN = Symbol("network down");
export type Handler = (body: Record<string, unknown>) => unknown;

export interface Call {
  url: string;
  name: string;
  body: Record<string, unknown>;
}

export interface PageOptions {
  tradeNo?: string;
  basePath?: string;
  mobile?: boolean;
  routes: Record<string, Handler>;
}

/** Renders the page, runs its script against fakes and returns the handles a test needs. */
export function openPage(opts: PageOptions) {
  const tradeNo = opts.tradeNo ?? "20240101120000123456";
  const basePath = opts.basePath ?? "";
  const doc = FakeDocument.fromHtml(renderCashierPage({ tradeNo, basePath }));
  const clock = new FakeClock();
  const calls: Call[] = [];
  const navigations: string[] = [];
  const storage = new Map<string, string>();

  const fetch = async (url: string, init: { method: string; body: string }) => {
    const name = url.split("?")[0]!.slice(`${basePath}/api/order/`.length);
    const body = JSON.parse(init.body) as Record<string, unknown>;
    calls.push({ url, name, body });
    if (init.method !== "POST") throw new Error(`expected POST, got ${init.method}`);
    const handler = opts.routes[name];
    const out = handler ? handler(body) : new Reply(404, { code: 404, message: "没有这个接口", data: null });
    if (out === NETWORK_DOWN) throw new TypeError("Failed to fetch");
    const reply = out instanceof Reply ? out : new Reply(200, out);
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { "Content-Type": "application/json" },
    });
  };

  const location = {
    set href(url: string) {
      navigations.push(url);
    },
    get href() {
      return navigations.at(-1) ?? `/pay/${tradeNo}`;
    },
  };
  const globals: Record<string, unknown> = {
    window: { matchMedia: () => ({ matches: !!opts.mobile }) },
    navigator: { userAgent: opts.mobile ? "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148" : "Mozilla/5.0 (X11; Linux x86_64)" },
    document: doc,
    location,
    fetch,
    sessionStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => storage.set(k, v) },
    Audio: class {
      paused = true;
      volume = 1;
      currentTime = 0;
      constructor(readonly src: string) {}
      play() {
        this.paused = false;
        return Promise.resolve();
      }
      pause() {
        this.paused = true;
      }
    },
    Date: { now: () => clock.now, parse: Date.parse },
    setTimeout: clock.setTimeout,
    setInterval: clock.setInterval,
    clearTimeout: clock.clear,
    clearInterval: clock.clear,
  };
  new Function(...Object.keys(globals), js)(...Object.values(globals));

  const el = (id: string) => doc.getElementById(id);
  return {
    doc,
    clock,
    calls,
    navigations,
    el,
    text: (id: string) => el(id)?.textContent ?? null,
    visible: (id: string) => !!el(id) && !el(id)!.hidden,
    names: () => calls.map((c) => c.name),
    nowSeconds: () => Math.floor(clock.now / 1000),
  };
}
