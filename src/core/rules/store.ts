// Operator-defined message rules and the payment-app notifications no rule recognises: a sub-port
// of Store (`store.rules`). Rules are checked by the core before they reach addRule
// (core/rules/check.ts); unparsed messages are kept within fixed bounds (core/rules/unparsed.ts).

/** A rule as stored: the text pattern is the operator's source, compiled by the core. */
export interface StoredRule {
  id: number;
  name: string;
  pkg: string;
  /** The sender's exact names (stored one a line). A rule that migration 018 disabled keeps the
   * pattern it had as its one "name", for the operator to read. */
  titles: string[];
  text: string;
  payType: string;
  createdAt: number;
  /** Why the rule does not run ('' when it does): migration 018 disables a rule whose title was a
   * pattern it could not read as a list of names. */
  disabled: string;
}

/** One notification of a payment app that no rule recognised (re-sends of it are counted). */
export interface UnparsedMessage {
  id: number;
  pid: number;
  pkg: string;
  title: string;
  text: string;
  /** Why the built-in formats did not take it (report-rules.ts), never the message itself. */
  reason: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

export interface NewUnparsed {
  pid: number;
  /** Identifies the notification (its whole forwarded content): a re-send bumps the count. */
  key: string;
  pkg: string;
  title: string;
  text: string;
  reason: string;
  now: number;
}

export type AddRuleResult = { kind: "added"; rule: StoredRule } | { kind: "refused"; reason: string };

export interface RulesStore {
  listRules(): Promise<StoredRule[]>;
  /** Refuses a name in use. A new rule runs (disabled ''). */
  addRule(r: Omit<StoredRule, "id" | "disabled">): Promise<AddRuleResult>;
  /** false when no rule has that name. */
  removeRule(name: string): Promise<boolean>;

  /** Keeps the message, or counts it again; the oldest rows go once there are `total`. */
  recordUnparsed(m: NewUnparsed, limits: { total: number }): Promise<void>;
  /** The message was recognised after all (an operator rule paid a re-send): it is no longer unparsed. */
  forgetUnparsed(pid: number, key: string): Promise<void>;
  /**
   * Most recently seen first; `since` (unix seconds): only those that arrived (or were re-sent) at
   * or after it. The unparsed_messages alert reads the last hour through here (core/rules/unparsed.ts).
   */
  listUnparsed(filter: { pid?: number; since?: number; limit?: number }): Promise<UnparsedMessage[]>;
}
