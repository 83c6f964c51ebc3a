// The operator's actions on alert channels, shared by the CLI (and a console later): add one from
// options (checked by channels/index.ts), send a test message through it at once with its answer
// kept in the history, remove one. Adding and removing are audited (`alert.add`, `alert.remove`):
// where the operator's alerts go decides who hears of money that paid no order. The audit keeps
// the channel as `xpay alert list` shows it, secrets masked.
import { type Actor, audit } from "../admin/audit.ts";
import type { Gateway } from "../gateway.ts";
import { type Problem, problem } from "../problem.ts";
import { channelConfig, maskConfig } from "./channels/index.ts";
import { sendThrough } from "./channels/send.ts";
import { ALERT_LEASE_MS, type DeliverOptions } from "./deliver.ts";
import { testMessage } from "./render.ts";
import type { AlertAttempt, AlertChannel, ChannelType } from "./store.ts";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

/** A refusal: `error` in the CLI's English, `problem` the same as a code for the console. */
export type AddResult = { ok: true; channel: AlertChannel; generatedSecret?: string } | { ok: false; error: string; problem: Problem };
const refused = (p: Problem): AddResult => ({ ok: false, error: p.text, problem: p });

const shown = (c: AlertChannel) => ({ name: c.name, type: c.type, config: maskConfig(c.type, c.config) });

export async function addAlertChannel(gw: Gateway, actor: Actor, input: { name: string; type: string; options: Record<string, string>; webhook?: string }): Promise<AddResult> {
  if (!NAME.test(input.name)) return refused(problem("alert.name", "--name must be 1-40 letters, digits, dots, dashes or underscores, starting with a letter or digit"));
  const built = channelConfig(input.type, input.options, input.webhook);
  if (!built.ok) return built;
  const r = await gw.store.alerts.addChannel({ name: input.name, type: input.type as ChannelType, config: built.config, now: gw.clock.now() });
  // The store refuses one thing: a channel of that name exists (its words are the English here too).
  if (r.kind === "refused") return refused(problem("alert.exists", r.reason, { name: input.name }));
  await audit(gw, { actor, action: "alert.add", target: `alert_channel:${r.channel.name}`, after: shown(r.channel) });
  return { ok: true, channel: r.channel, ...(built.generatedSecret ? { generatedSecret: built.generatedSecret } : {}) };
}

/** Removes a channel (its history stays); false when there is none of that name. */
export async function removeAlertChannel(gw: Gateway, actor: Actor, name: string): Promise<boolean> {
  const channel = await gw.store.alerts.getChannel(name);
  if (!channel || !(await gw.store.alerts.removeChannel(name, gw.clock.nowMs()))) return false;
  await audit(gw, { actor, action: "alert.remove", target: `alert_channel:${name}`, before: shown(channel) });
  return true;
}

/** Sends a sample message now and records it as a message of its own (no retries: the operator is watching). */
export async function testAlertChannel(gw: Gateway, name: string, o: DeliverOptions = {}): Promise<{ channel: AlertChannel; attempt: AlertAttempt } | null> {
  const channel = await gw.store.alerts.getChannel(name);
  if (!channel) return null;
  const settings = await gw.settings();
  const message = testMessage(name, { nowMs: gw.clock.nowMs(), timeZone: settings.str("timezone") });
  const id = await gw.store.alerts.insertLeased(channel, message, gw.clock.nowMs(), ALERT_LEASE_MS);
  const attempt = await sendThrough(channel, message, { ...o, nowMs: gw.clock.nowMs() });
  await gw.store.alerts.recordAttempt(id, { attempt, status: attempt.ok ? "sent" : "failed", nextAttemptAt: gw.clock.nowMs() });
  return { channel, attempt };
}
