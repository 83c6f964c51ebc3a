// Which store a --db / XPAY_DB value means: a postgres:// or postgresql:// URL selects PostgreSQL,
// anything else stays a SQLite file path.

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/** The URL as an operator may see it in a message or a log line: never the password. */
export function describePostgresUrl(value: string): string {
  try {
    const u = new URL(value.trim());
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(an unreadable URL)";
  }
}
