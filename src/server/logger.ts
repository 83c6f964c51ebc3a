import pc from "picocolors";
import { type LogFields, type Logger, mask, printable } from "../core/log.ts";
import { DEFAULT_TIME_ZONE } from "../core/time.ts";
import { bufferedLines } from "./log-buffer.ts";
import { LogClock } from "./log-clock.ts";

export type LogFormat = "json" | "pretty";

/** The server's logger: the core's events and errors, plus warnings and the start/stop lines. */
export interface ServeLogger extends Logger {
  warn(name: string, fields?: LogFields): void;
  /** A line a person reads in the terminal (`text`); in JSON it is the event with its fields. */
  notice(name: string, fields: LogFields, text: string): void;
  /** The `timezone` setting: every line's time is in it, with its UTC offset. */
  timeZone: string;
  /** Writes the lines still queued (the default writer sends them once per event-loop turn, and at exit). */
  flush(): void;
}

type Level = "info" | "warn" | "error";

/**
 * Writes one line per event: JSON for log collectors (every line, the start and stop lines
 * included, so a collector never meets a line it cannot parse), or coloured text for a terminal.
 * By default to stdout, the lines of one event-loop turn in one write (log-buffer.ts); the time
 * is formatted once per second (log-clock.ts).
 */
export function createLogger(format: LogFormat, write: ((line: string) => void) & { flush?: () => void } = bufferedLines(), timeZone = DEFAULT_TIME_ZONE): ServeLogger {
  const clock = new LogClock();
  const log: ServeLogger = {
    timeZone,
    flush: () => write.flush?.(),
    event: (n, f) => line("info", n, f),
    warn: (n, f) => line("warn", n, f),
    error: (n, f) => line("error", n, f),
    notice: (n, f, text) => line("info", n, f, text),
  };
  function line(level: Level, name: string, fields: LogFields = {}, text?: string) {
    const safe = mask(fields);
    const now = Date.now();
    if (format === "json") {
      write(JSON.stringify({ time: clock.iso(now, log.timeZone), level, event: name, ...safe }));
      return;
    }
    const at = pc.dim(clock.clockOf(now, log.timeZone));
    if (text !== undefined) return write(`${at} ${text}`);
    if (level === "warn" && typeof safe.message === "string") return write(`${at} ${pc.yellow("warning:")} ${printable(safe.message)}`);
    const head = level === "error" ? pc.red(name) : level === "warn" ? pc.yellow(`warning ${name}`) : pc.cyan(name);
    // One string built in a loop, not an entries/map/join chain: this runs for every request.
    let parts = "";
    for (const k of Object.keys(safe)) {
      const v = safe[k];
      parts += `${parts === "" ? "" : " "}${pc.dim(printable(k) + "=")}${printable(typeof v === "string" ? v : String(JSON.stringify(v)))}`;
    }
    write(`${at} ${head} ${parts}`);
  }
  return log;
}
