// Operator names and passwords: the rules the CLI and the console both apply, and the argon2id
// hashing (Bun.password). Rules are length over composition (NIST SP 800-63B): at least 10
// characters, at most 200, not the user name, not one or two characters repeated. A problem is a
// code; each edge words it (the CLI in English, the console from its dictionary).

import { BUSY, passwordSlots } from "./hash-slots.ts";

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

export type PasswordProblem = "too_short" | "too_long" | "same_as_name" | "too_simple";
export type NameProblem = "bad_name" | "reserved_name";

/** Actors the audit log writes itself; an operator may not take one of these names. */
export const RESERVED_NAMES = ["cli", "system", "anonymous"];

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,31}$/;

export function nameProblem(name: string): NameProblem | null {
  if (!NAME.test(name)) return "bad_name";
  if (RESERVED_NAMES.includes(name.toLowerCase())) return "reserved_name";
  return null;
}

export function passwordProblem(password: string, name: string): PasswordProblem | null {
  const chars = [...password];
  if (chars.length < PASSWORD_MIN) return "too_short";
  if (chars.length > PASSWORD_MAX) return "too_long";
  if (password.toLowerCase() === name.toLowerCase()) return "same_as_name";
  if (new Set(chars).size < 3) return "too_simple";
  return null;
}

export const NAME_MESSAGES: Record<NameProblem, string> = {
  bad_name: "user names are 1-32 characters: letters, digits and . _ @ -, starting with a letter or digit",
  reserved_name: "that name is reserved for the audit log (cli, system, anonymous); choose another",
};

export const PASSWORD_MESSAGES: Record<PasswordProblem, string> = {
  too_short: `the password must have at least ${PASSWORD_MIN} characters`,
  too_long: `the password must have at most ${PASSWORD_MAX} characters`,
  same_as_name: "the password must not be the user name",
  too_simple: "the password must not be one or two characters repeated",
};

/** Operators at work (setup, a password change, the CLI): the known lane, never refused. */
export function hashPassword(password: string): Promise<string> {
  return passwordSlots.run(() => Bun.password.hash(password, { algorithm: "argon2id" }));
}

let dummy: Promise<string> | null = null;

/**
 * Checks against the stored hash, or, for an unknown name, against a hash of nothing in
 * particular, so a wrong name and a wrong password take the same time (no name probing). A
 * damaged hash logs nobody in. Runs inside the slot it was given (never takes a second one).
 */
async function check(password: string, hash: string | null): Promise<boolean> {
  if (hash === null) {
    dummy ??= Bun.password.hash("xpay: no such operator", { algorithm: "argon2id" });
    await Bun.password.verify(password, await dummy);
    return false;
  }
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}

/** A logged-in operator's own password (the current one, before a change): the known lane. */
export function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  return passwordSlots.run(() => check(password, hash));
}

/**
 * A login's check: a known browser in the known lane, a stranger behind, or BUSY at once when the
 * strangers' queue is full.
 */
export function verifyLogin(password: string, hash: string | null, known: boolean): Promise<boolean | typeof BUSY> {
  return known ? passwordSlots.run(() => check(password, hash)) : passwordSlots.tryRun(() => check(password, hash));
}
