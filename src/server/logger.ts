import pc from "picocolors";
import { type LogFields, type Logger, mask } from "../core/log.ts";

export type LogFormat = "json" | "pretty";

/** Writes one line per event: JSON for log collectors, or coloured text for a terminal. */
export function createLogger(format: LogFormat, write: (line: string) => void = (l) => process.stdout.write(l + "\n")): Logger {
  const line = (level: "info" | "error", name: string, fields: LogFields = {}) => {
    const safe = mask(fields);
    if (format === "json") {
      write(JSON.stringify({ time: new Date().toISOString(), level, event: name, ...safe }));
      return;
    }
    const parts = Object.entries(safe).map(([k, v]) => `${pc.dim(k + "=")}${typeof v === "string" ? v : JSON.stringify(v)}`);
    const head = level === "error" ? pc.red(name) : pc.cyan(name);
    write(`${pc.dim(new Date().toISOString().slice(11, 19))} ${head} ${parts.join(" ")}`);
  };
  return { event: (n, f) => line("info", n, f), error: (n, f) => line("error", n, f) };
}
