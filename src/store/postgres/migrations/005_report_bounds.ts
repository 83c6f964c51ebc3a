// SQLite 005: refused reports are bounded (core/refusals.ts): their source, the per-source index,
// the counters that replace the rest, and the time indexes the retention prune walks.
export default `
ALTER TABLE reports ADD COLUMN source TEXT NOT NULL DEFAULT '';
CREATE INDEX reports_rejected_by_source ON reports (source, id) WHERE outcome = 'rejected';
CREATE INDEX reports_by_outcome_time ON reports (outcome, created_at);
CREATE INDEX notification_attempts_by_time ON notification_attempts (attempted_at);

CREATE TABLE report_refusals (
  source     TEXT    NOT NULL,
  reason     TEXT    NOT NULL,
  count      BIGINT  NOT NULL,
  first_seen BIGINT  NOT NULL,
  last_seen  BIGINT  NOT NULL,
  PRIMARY KEY (source, reason)
);
`;
