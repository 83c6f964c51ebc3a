// The alert rules, as one pure function: what this pass found against what is stored, to the
// instance changes and the messages to queue. Once per dedupe key and episode; throttled; a
// resolved message for every firing one that went out; a summary when many go out at once.
import { firingMessage, type RenderContext, resolvedMessage, summaryMessage } from "./render.ts";
import type { StateResult } from "./conditions.ts";
import type { AlertInstance, AlertMessage, Finding } from "./types.ts";

/** More messages than this in one pass go out as one summary. */
export const SUMMARY_AT = 5;

export interface PlanInput {
  /** Unix seconds. */
  now: number;
  /** alert_throttle, seconds. */
  throttle: number;
  /** Without a channel nothing is sent: firing instances stay held back and go out once one exists. */
  haveChannels: boolean;
  state: StateResult;
  events: Finding[];
  /** Instances firing now. */
  active: AlertInstance[];
  /** Stored instances of the keys found now that are not active (resolved ones, events seen). */
  previous: AlertInstance[];
  render: RenderContext;
}

export interface Plan {
  /** Instances to write (new, changed). */
  instances: AlertInstance[];
  messages: AlertMessage[];
}

export function plan(p: PlanInput): Plan {
  const active = new Map(p.active.map((i) => [i.key, i]));
  const previous = new Map(p.previous.map((i) => [i.key, i]));
  const evaluated = new Set(p.state.evaluated);
  const off = new Set(p.state.off);
  const found = new Set(p.state.findings.map((f) => f.key));
  const instances: AlertInstance[] = [];
  const messages: AlertMessage[] = [];
  const due = (i: { lastSentAt: number | null }) => i.lastSentAt === null || p.now - i.lastSentAt >= p.throttle;

  for (const f of p.state.findings) {
    const open = active.get(f.key);
    if (open) {
      // Held back by the throttle (or no channel then): sent once, if it still holds when allowed.
      if (!open.notified && p.haveChannels && due(open)) {
        messages.push(firingMessage(f, p.render, open.flaps));
        instances.push({ ...open, notified: true, lastSentAt: p.now, flaps: 0, finding: f });
      }
      continue;
    }
    const before = previous.get(f.key);
    const held = before !== undefined && !due(before);
    const send = p.haveChannels && !held;
    if (send) messages.push(firingMessage(f, p.render, before?.flaps ?? 0));
    instances.push({
      key: f.key, condition: f.condition, state: "firing", notified: send, openedAt: p.now, resolvedAt: null,
      lastSentAt: send ? p.now : (before?.lastSentAt ?? null), flaps: held ? before.flaps + 1 : send ? 0 : (before?.flaps ?? 0), finding: f,
    });
  }

  for (const open of p.active) {
    if (found.has(open.key)) continue;
    if (evaluated.has(open.condition)) {
      if (open.notified) messages.push(resolvedMessage(open.finding, open.openedAt, p.render));
      instances.push({ ...open, state: "resolved", resolvedAt: p.now });
    } else if (off.has(open.condition)) {
      // Turned off by the operator: closed quietly ("resolved" would claim something was fixed).
      instances.push({ ...open, state: "resolved", resolvedAt: p.now, notified: false });
    }
    // Neither: its facts could not be read this pass; it stays as it is.
  }

  for (const f of p.events) {
    if (previous.has(f.key) || active.has(f.key)) continue;
    if (p.haveChannels) messages.push(firingMessage(f, p.render));
    instances.push({ key: f.key, condition: f.condition, state: "event", notified: p.haveChannels, openedAt: p.now, resolvedAt: null, lastSentAt: p.haveChannels ? p.now : null, flaps: 0, finding: f });
  }

  return { instances, messages: messages.length > SUMMARY_AT ? [summaryMessage(messages, p.render)] : messages };
}
