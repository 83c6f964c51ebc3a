// The console's part of the store (Store.admin): operators, their sessions, the first-run setup
// tokens and the audit log. Like the rest of the Store, each call is one atomic unit; the rules
// (expiry, password checks, redaction) stay in src/core/admin and arrive here as plain values.

export interface Operator {
  id: number;
  name: string;
  createdAt: number;
  passwordChangedAt: number;
  /** 0 when the operator never logged in to the console. */
  lastLoginAt: number;
}

export interface OperatorWithHash extends Operator {
  passwordHash: string;
}

export interface OperatorSession {
  id: number;
  operatorId: number;
  operatorName: string;
  createdAt: number;
  lastUsedAt: number;
  /** The address the session logged in from, and the one it was last used from. */
  ip: string;
  lastIp: string;
  userAgent: string;
}

export interface NewSession {
  operatorId: number;
  /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
  tokenHash: string;
  now: number;
  ip: string;
  userAgent: string;
}

/** A session is live while used after `lastUsedAfter` and created after `createdAfter`. */
export interface LiveWindow {
  lastUsedAfter: number;
  createdAfter: number;
}

export interface AuditEntry {
  id: number;
  at: number;
  /** The operator's name, `cli` for the terminal, `anonymous` before a login. */
  actor: string;
  /** `<noun>.<verb>`, e.g. `session.login`, `operator.add`, `order.close`. */
  action: string;
  target: string;
  ip: string;
  /** JSON values, secrets already redacted (core/admin/audit.ts). */
  before: unknown;
  after: unknown;
  reason: string;
}

export type NewAuditEntry = Omit<AuditEntry, "id">;

export interface AuditFilter {
  actor?: string;
  action?: string;
  /** Exactly this target, e.g. `order:20261123143000123456` (an order page's operator actions). */
  target?: string;
  /** Keyset paging: entries with a smaller id (older), or with a larger id (newer). */
  beforeId?: number;
  afterId?: number;
  /** Written at or after `from`, before `to` (unix seconds). */
  from?: number;
  to?: number;
  limit: number;
}

/** One counter of failed console logins: a typed user name (case folded), a browser, a minute, an address. */
export interface LoginCounter {
  user: string;
  /** '' for a browser that never logged in as this user; else the known browser's key. */
  device: string;
  /** Start of the minute (epoch seconds, a multiple of 60). */
  window: number;
  ip: string;
}

export interface LoginFailureSummary extends LoginCounter {
  /** Attempts whose password was checked and was wrong (and, for a moment, those being checked). */
  failed: number;
  /** Attempts turned away unchecked: throttled, or the password queue was full. */
  refused: number;
  firstAt: number;
  lastAt: number;
}

/** The `failed` count of one minute. */
export interface WindowCount {
  window: number;
  failed: number;
}

/** What the login throttle reads: failed counts per minute since a time, in three scopes. */
export interface LoginWindows {
  /** Unknown browsers at this address, any user name. */
  ip: WindowCount[];
  /** Unknown browsers on this user name, any address. */
  user: WindowCount[];
  /** This known browser (empty when the device is ''). */
  device: WindowCount[];
}

export interface SetupUnit {
  tokenHash: string;
  now: number;
  name: string;
  passwordHash: string;
  /** The first operator's session, opened in the same unit. */
  session: Omit<NewSession, "operatorId" | "now">;
}

export type SetupResult =
  | { kind: "done"; operator: Operator; session: OperatorSession }
  | { kind: "bad_token" }
  | { kind: "operator_exists" };

export interface AdminStore {
  countOperators(): Promise<number>;
  /** Null when the name (case-insensitive) is taken. */
  addOperator(o: { name: string; passwordHash: string; now: number }): Promise<Operator | null>;
  /** By name, case-insensitive. */
  findOperator(name: string): Promise<OperatorWithHash | null>;
  listOperators(): Promise<Operator[]>;
  /** Sets the hash and deletes the operator's sessions except `keepSessionId`; returns how many went. */
  setPassword(operatorId: number, passwordHash: string, now: number, keepSessionId?: number): Promise<number>;
  /** Deletes the operator and (cascade) its sessions. */
  removeOperator(operatorId: number): Promise<boolean>;

  /** Opens a session and stamps the operator's last login. */
  createSession(s: NewSession): Promise<OperatorSession>;
  findSession(tokenHash: string): Promise<OperatorSession | null>;
  touchSession(id: number, now: number, ip: string): Promise<void>;
  listSessions(filter: { operatorId?: number; live: LiveWindow }): Promise<OperatorSession[]>;
  /** Deletes one session; with `operatorId`, only when it is that operator's. */
  deleteSession(id: number, operatorId?: number): Promise<boolean>;
  /** Deletes every session of the operator except `exceptId`; returns how many. */
  deleteSessions(operatorId: number, exceptId?: number): Promise<number>;
  /** Deletes every session outside the live window; returns how many. */
  pruneSessions(live: LiveWindow): Promise<number>;

  /** Stores a setup token and drops every other one (only the newest printed link works). */
  addSetupToken(tokenHash: string, now: number, expiresAt: number): Promise<void>;
  setupTokenValid(tokenHash: string, now: number): Promise<boolean>;
  /** First run: creates the first operator and its session and burns every setup token, only while no operator exists. */
  completeSetup(unit: SetupUnit): Promise<SetupResult>;

  /**
   * Adds to one login counter (`failed` may be -1: the attempt counted before its check succeeded,
   * or was never checked); created when missing, deleted once both counts are 0.
   */
  countLogin(key: LoginCounter, add: { failed: number; refused: number }, at: number): Promise<void>;
  /** Failed counts per minute from `since` on, oldest first, for the throttle (three scopes). */
  loginWindows(q: { user: string; ip: string; device: string; since: number }): Promise<LoginWindows>;
  /** Counters from `since` on (optionally of one user name), newest minute first, at most `limit`. */
  listLoginFailures(q: { since: number; user?: string; limit: number }): Promise<LoginFailureSummary[]>;
  /** Deletes up to `batch` counters of minutes before `before`; returns how many. */
  pruneLoginFailures(before: number, batch: number): Promise<number>;

  appendAudit(entry: NewAuditEntry): Promise<number>;
  /** Newest first (oldest first with `afterId`, then reversed by the caller). */
  listAudit(filter: AuditFilter): Promise<AuditEntry[]>;
}
