// SQLite 017: failed console logins counted per (user name, browser, minute, address) instead of
// one audit row each; the old `session.login_failed` audit rows become such counters.
export default `
CREATE TABLE login_failures (
  user_name    TEXT    NOT NULL,
  device       TEXT    NOT NULL,
  window_start BIGINT  NOT NULL,
  ip           TEXT    NOT NULL,
  failed       BIGINT  NOT NULL DEFAULT 0,
  refused      BIGINT  NOT NULL DEFAULT 0,
  first_at     BIGINT  NOT NULL,
  last_at      BIGINT  NOT NULL,
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
