// Device history (issue 22): when each monitoring client was online, as online stretches instead
// of one row per heartbeat. The stretch a client is in now lives on its clients row (online_since,
// online_beats; it ends at last_seen_at), so a beat rewrites the row it rewrote before anyway:
// nothing more to write on the report path. A beat that comes later than heartbeat_timeout after
// the last one first moves the finished stretch into client_online, one row per outage: a phone
// beating every 30 s for a year is a few rows there, not a million. The console reads a client's
// stretches by (client_id, start_at); the retention prune (client_history_days) walks the small
// table by id, oldest first.
// reports_by_client: a client's own payment reports (the console's client page, its latency and
// the messages no rule read) without scanning its merchant's heartbeats; heartbeats are left out
// of the index, so the most frequent insert pays nothing for it.
export default `
ALTER TABLE clients ADD COLUMN online_since INTEGER NOT NULL DEFAULT 0;
ALTER TABLE clients ADD COLUMN online_beats INTEGER NOT NULL DEFAULT 0;
-- The history starts with what the database knows: each client's last beat.
UPDATE clients SET online_since = last_seen_at, online_beats = 1 WHERE last_seen_at > 0;
CREATE TABLE client_online (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  client_id INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  start_at  INTEGER NOT NULL,
  end_at    INTEGER NOT NULL,
  beats     INTEGER NOT NULL
);
CREATE INDEX client_online_by_client ON client_online (client_id, start_at);
CREATE INDEX reports_by_client ON reports (client, id) WHERE kind NOT IN ('heart', 'third-heart', 'vmq-heart');
`;
