// The channel registry, and the operator's input turned into a stored config: every type's
// required fields at once, choices checked, an option of another type refused by name, a vendor
// webhook URL taken apart (DingTalk, Feishu, WeCom show one URL with the token inside), and base
// URLs held to the floor of notify/address.ts (never link-local, i.e. cloud metadata). Loopback
// and private addresses are allowed: the operator chose the target.
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { classifyAddress } from "../../notify/address.ts";
import { type Problem, problem } from "../../problem.ts";
import type { ChannelType } from "../store.ts";
import { dingtalk } from "./dingtalk.ts";
import { email } from "./email.ts";
import { feishu } from "./feishu.ts";
import type { ChannelKind } from "./kind.ts";
import { serverchan } from "./serverchan.ts";
import { telegram } from "./telegram.ts";
import { webhook } from "./webhook.ts";
import { wecom } from "./wecom.ts";

export const CHANNEL_KINDS: Record<ChannelType, ChannelKind> = { webhook, telegram, dingtalk, feishu, wecom, serverchan, email };
export const CHANNEL_TYPES = Object.keys(CHANNEL_KINDS) as ChannelType[];

export const flagOf = (key: string) => `--${key.replace(/_/g, "-")}`;
const a = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** Why a URL may not be an alert target, or null. */
export function urlProblem(url: string, flag: string): Problem | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return problem("alert.url_invalid", `${flag} is not a valid URL`, { flag });
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return problem("alert.url_scheme", `${flag} must be an http(s) URL`, { flag });
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const c = isIP(host) ? classifyAddress(host, new Set()) : null;
  return c?.floor ? problem("alert.url_floor", `${flag} points to ${host} (${c.why}), never an alert target`, { flag, host }) : null;
}

/** Splits a vendor's webhook URL into the fields it carries. */
function fromWebhook(type: ChannelType, url: string): { fields: Record<string, string> } | { problem: Problem } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { problem: problem("alert.url_invalid", "--webhook is not a valid URL", { flag: "--webhook" }) };
  }
  const base = u.origin;
  if (type === "dingtalk" && u.searchParams.get("access_token")) return { fields: { access_token: u.searchParams.get("access_token")!, base_url: base } };
  if (type === "wecom" && u.searchParams.get("key")) return { fields: { key: u.searchParams.get("key")!, base_url: base } };
  const hook = /\/open-apis\/bot\/v2\/hook\/([^/?#]+)$/.exec(u.pathname)?.[1];
  if (type === "feishu" && hook) return { fields: { hook, base_url: base } };
  const shape = type === "feishu" ? ".../open-apis/bot/v2/hook/<id>" : type === "dingtalk" ? "...?access_token=..." : "...?key=...";
  return { problem: problem("alert.webhook_shape", `--webhook is not a ${CHANNEL_KINDS[type].label} webhook URL (${shape})`, { label: CHANNEL_KINDS[type].label, shape }) };
}

/** A refusal: `error` is the English (the CLI's), `problem` the same as a code (the console's). */
export type ConfigResult = { ok: true; config: Record<string, string>; generatedSecret?: string } | { ok: false; error: string; problem: Problem };
const refused = (p: Problem): ConfigResult => ({ ok: false, error: p.text, problem: p });

/** The stored config of a new channel from the operator's options (keys as the fields name them). */
export function channelConfig(type: string, given: Record<string, string>, webhookUrl?: string): ConfigResult {
  const kind = CHANNEL_KINDS[type as ChannelType];
  if (!kind) return refused(problem("alert.type", `--type must be one of: ${CHANNEL_TYPES.join(", ")}`, { types: CHANNEL_TYPES.join(", ") }));
  const keys = new Set(kind.fields.map((f) => f.key));
  const foreign = Object.keys(given).filter((k) => !keys.has(k));
  if (foreign.length) {
    const [flags, options] = [foreign.map(flagOf).join(", "), kind.fields.map((f) => flagOf(f.key)).join(", ")];
    return refused(problem("alert.foreign", `${flags} ${foreign.length > 1 ? "are not options" : "is not an option"} of ${a(type)} channel (its options: ${options})`, { flags, type, options }));
  }
  let config: Record<string, string> = { ...given };
  if (webhookUrl !== undefined) {
    if (!["dingtalk", "feishu", "wecom"].includes(type)) return refused(problem("alert.webhook_type", "--webhook is for dingtalk, feishu and wecom channels"));
    const parsed = fromWebhook(type as ChannelType, webhookUrl);
    if ("problem" in parsed) return refused(parsed.problem);
    const fields = parsed.fields;
    if (kind.baseUrl && fields.base_url === new URL(kind.baseUrl).origin) delete fields.base_url;
    config = { ...fields, ...config };
  }
  let generatedSecret: string | undefined;
  if (type === "webhook" && config.secret === undefined) config.secret = generatedSecret = randomBytes(16).toString("hex");
  const missing = kind.fields.filter((f) => f.required && !config[f.key]);
  if (missing.length) {
    const flags = missing.map((f) => flagOf(f.key)).join(", ");
    const hook = ["dingtalk", "feishu", "wecom"].includes(type);
    return refused(problem(hook ? "alert.missing_or_webhook" : "alert.missing", `${a(type)} channel needs ${flags}${hook ? " (or --webhook URL)" : ""}`, { type, flags }));
  }
  for (const f of kind.fields) {
    if (f.values && config[f.key] !== undefined && !f.values.includes(config[f.key]!)) {
      return refused(problem("alert.values", `${flagOf(f.key)} must be one of: ${f.values.join(", ")}`, { flag: flagOf(f.key), values: f.values.join(", ") }));
    }
  }
  for (const [key, flag] of [["base_url", "--base-url"], ["url", "--url"]] as const) {
    const bad = config[key] !== undefined ? urlProblem(config[key]!, flag) : null;
    if (bad) return refused(bad);
  }
  const bad = kind.check?.(config) ?? null;
  return bad ? refused(bad) : { ok: true, config, ...(generatedSecret ? { generatedSecret } : {}) };
}

/** The config as it may be shown: secrets masked, a URL's query values masked (tokens live there). */
export function maskConfig(type: ChannelType, config: Record<string, string>): Record<string, string> {
  const secret = new Set(CHANNEL_KINDS[type]?.fields.filter((f) => f.secret).map((f) => f.key) ?? []);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) out[k] = secret.has(k) ? (v ? "********" : "") : /^https?:\/\//.test(v) ? maskQuery(v) : v;
  return out;
}

function maskQuery(url: string): string {
  const i = url.indexOf("?");
  if (i < 0) return url;
  const q = new URLSearchParams(url.slice(i + 1));
  for (const k of [...q.keys()]) q.set(k, "***");
  return `${url.slice(0, i)}?${q.toString()}`;
}

/** Every secret value of a config, to scrub from anything stored or logged (answers, errors). */
export function secretsOf(type: ChannelType, config: Record<string, string>): string[] {
  const fields = (CHANNEL_KINDS[type]?.fields ?? []).filter((f) => f.secret && config[f.key]).map((f) => config[f.key]!);
  // A webhook URL may carry its own token in the query.
  const query = config.url?.includes("?") ? [...new URLSearchParams(config.url.slice(config.url.indexOf("?") + 1)).values()] : [];
  return [...fields, ...query.filter((v) => v.length >= 6)];
}
