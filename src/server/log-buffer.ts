// Log lines written in one write per event-loop turn instead of one per line: under load the
// access log was ~8 MB in 10 s in as many write calls as requests. Lines queue in memory and go
// out together from a setImmediate, which runs once the turn's requests have been answered; every
// line is kept (nothing is sampled or dropped). What is queued when the process ends is written by
// the exit handler, so the "stopped" line of a SIGTERM and whatever preceded it reach the file.
import { writeSync } from "node:fs";

export interface LineSink {
  (line: string): void;
  /** Writes what is queued now. */
  flush(): void;
}

const sinks = new Set<LineSink>();
let exitHooked = false;

/** A sink for file descriptor `fd` (1: stdout), flushed once per turn and at exit; `out` writes (the tests count its calls). */
export function bufferedLines(fd = 1, out: (fd: number, text: string) => void = writeAll): LineSink {
  let queued: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (queued.length === 0) return;
    const text = `${queued.join("\n")}\n`;
    queued = [];
    out(fd, text);
  };
  const sink = ((line: string) => {
    queued.push(line);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }) as LineSink;
  sink.flush = flush;
  sinks.add(sink);
  if (!exitHooked) {
    exitHooked = true;
    process.on("exit", () => {
      for (const s of sinks) s.flush();
    });
  }
  return sink;
}

/** The whole text, also when the descriptor is a non-blocking pipe that takes it in parts. */
function writeAll(fd: number, text: string): void {
  let buf = Buffer.from(text);
  while (buf.length > 0) {
    try {
      const n = writeSync(fd, buf);
      buf = buf.subarray(n);
    } catch (e) {
      if ((e as { code?: string }).code !== "EAGAIN") return; // a closed stdout: nothing to write to
      Bun.sleepSync(1);
    }
  }
}
