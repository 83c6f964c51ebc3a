// The outbound senders (merchant notifications, alert channels) read a stranger's answer through
// readCapped: an endpoint that streams forever must end in a bounded read, not exhausted memory.
import { describe, expect, test } from "bun:test";
import { MAX_READ, readCapped } from "../../src/core/read-capped.ts";

describe("readCapped", () => {
  test("an endless body: at most MAX_READ bytes, and the stream is cancelled", async () => {
    let cancelled = false;
    const chunk = new Uint8Array(10_000).fill(97);
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(chunk),
      cancel: () => { cancelled = true; },
    });
    const bytes = await readCapped(new Response(endless));
    expect(bytes.length).toBe(MAX_READ);
    expect(cancelled).toBe(true);
  });

  test("a short body whole; none at all as empty", async () => {
    expect(new TextDecoder().decode(await readCapped(new Response("success")))).toBe("success");
    expect((await readCapped(new Response(null))).length).toBe(0);
  });

  test("a smaller cap when asked", async () => {
    expect((await readCapped(new Response("x".repeat(5000)), 100)).length).toBe(100);
  });
});
