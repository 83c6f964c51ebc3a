// Failed console logins as counters, not audit rows (issue 27): one row per typed user name (case
// folded), browser (device '' for one that never logged in as that user, else the known
// browser's key), minute and client address, with how many attempts were checked and failed
// (`failed`, which is also what the login throttle counts, so every instance on one database
// counts the same attempts) and how many were turned away unchecked (`refused`: throttled, or
// the password queue full). A flood from 40 addresses for ten minutes is at most 400 rows, each
// pruned after login_failure_retention_days. The primary key serves the per-user count; the two
// partial indexes the per-address count of unknown browsers and the per-device count; the
// window index the listing and the prune. The `session.login_failed` rows the audit log held
// until now become counters of the same shape and leave the audit log.
export default `
CREATE TABLE login_failures (
  user_name    TEXT    NOT NULL,
  device       TEXT    NOT NULL,
  window_start INTEGER NOT NULL,
  ip           TEXT    NOT NULL,
  failed       INTEGER NOT NULL DEFAULT 0,
  refused      INTEGER NOT NULL DEFAULT 0,
  first_at     INTEGER NOT NULL,
  last_at      INTEGER NOT NULL,
  PRIMARY KEY (user_name, device, window_start, ip)
);
CREATE INDEX login_failures_by_ip ON login_failures (ip, window_start) WHERE device = '';
CREATE INDEX login_failures_by_device ON login_failures (device, window_start) WHERE device <> '';
CREATE INDEX login_failures_by_window ON login_failures (window_start);
INSERT INTO login_failures (user_name, device, window_start, ip, failed, refused, first_at, last_at)
  SELECT lower(substr(target, 10, 64)), '', (at / 60) * 60, ip, count(*), 0, min(at), max(at)
  FROM audit_log WHERE action = 'session.login_failed' AND target LIKE 'operator:%'
  GROUP BY lower(substr(target, 10, 64)), (at / 60) * 60, ip;
DELETE FROM audit_log WHERE action = 'session.login_failed';
`;
