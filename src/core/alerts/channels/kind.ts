// What every alert channel is: its fields (options of `xpay alert add`, secrets marked), the exact
// request its vendor expects (a pure function of the config, the message and the time, so tests
// check it byte for byte), and how to read the vendor's answer (HTTP 200 with an error code inside
// is a failure). E-mail has no HTTP request: it sends through nodemailer instead.
import type { Problem } from "../../problem.ts";
import type { AlertAttempt, ChannelType } from "../store.ts";
import type { AlertMessage } from "../types.ts";

export interface FieldSpec {
  /** Key in the stored config and the option `--<key with - for _>`. */
  key: string;
  help: string;
  required?: boolean;
  /** Never printed, never logged. */
  secret?: boolean;
  /** Allowed values, when the field is a choice. */
  values?: string[];
}

export interface HttpRequestSpec {
  method: "POST";
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface ChannelKind {
  type: ChannelType;
  /** The vendor's name, for help and messages. */
  label: string;
  fields: FieldSpec[];
  /** The vendor's default base URL (overridable by the `base_url` field); none for e-mail. */
  baseUrl?: string;
  /** Checks beyond required fields and choices; null when the config is usable. */
  check?(c: Record<string, string>): Problem | null;
  request?(c: Record<string, string>, m: AlertMessage, nowMs: number): HttpRequestSpec;
  /** Reads a 2xx answer's body: the vendor's own success flag. */
  answer?(body: string): { ok: boolean; error: string };
  /** Sends without HTTP (e-mail); never throws. */
  send?(c: Record<string, string>, m: AlertMessage, o: { timeoutMs: number }): Promise<Omit<AlertAttempt, "attemptedAt" | "durationMs">>;
}

export const BASE_URL_FIELD: FieldSpec = { key: "base_url", help: "the vendor's API base URL, e.g. a proxy or a local test receiver (default: the vendor's)" };

/** The base URL without a trailing slash: the config's override or the vendor's. */
export function baseOf(c: Record<string, string>, fallback: string): string {
  return (c.base_url || fallback).replace(/\/+$/, "");
}

/** A JSON answer's success flag; a body that is not JSON is a failure with its first bytes. */
export function jsonAnswer(body: string, read: (j: Record<string, unknown>) => { ok: boolean; error: string }): { ok: boolean; error: string } {
  let j: unknown;
  try {
    j = JSON.parse(body);
  } catch {
    return { ok: false, error: `answer is not JSON: ${body.slice(0, 80)}` };
  }
  if (j === null || typeof j !== "object" || Array.isArray(j)) return { ok: false, error: "answer is not a JSON object" };
  return read(j as Record<string, unknown>);
}

/** Cut to at most `max` UTF-8 bytes on a character boundary, marking the cut. */
export function clipUtf8(text: string, max: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return text;
  let end = max - 4; // room for the mark
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return `${new TextDecoder().decode(bytes.subarray(0, end))}\n…`;
}

/** The message as Markdown for vendors that render it: title bold, one paragraph per line. */
export function markdownOf(m: AlertMessage): string {
  const [first, ...rest] = m.text.split("\n");
  return [`**${first}**`, ...rest].join("\n\n");
}

export const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "user-agent": "xpay-alert/1" } as const;
