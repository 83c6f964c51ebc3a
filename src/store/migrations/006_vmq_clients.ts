// V免签 clients (protocols/vmq): each holds one communication key for one merchant. Requests carry
// no merchant id, so a request is attributed by the key that verifies it; a key therefore belongs
// to one client only. last_heart_t is the app's own clock in its last accepted heartbeat, so a
// captured heartbeat replayed later is never newer and cannot keep a dead phone "online".
export default `
CREATE TABLE vmq_clients (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  pid           INTEGER NOT NULL REFERENCES merchants (pid),
  name          TEXT    NOT NULL UNIQUE,
  key           TEXT    NOT NULL UNIQUE,
  created_at    INTEGER NOT NULL,
  last_heart_t  INTEGER NOT NULL DEFAULT 0,
  last_heart_at INTEGER NOT NULL DEFAULT 0,
  last_push_at  INTEGER NOT NULL DEFAULT 0
);
`;
