// SQLite 015: every report source is a client with its own secret (keyed_clients, from
// vmq_clients, owner 0 allowed), the accounts one report could mean (channel_accounts.report_group),
// and the SmsForwarder timestamps already accepted (report_nonces).
export default `
ALTER TABLE vmq_clients RENAME TO keyed_clients;
ALTER TABLE keyed_clients DROP CONSTRAINT IF EXISTS vmq_clients_pid_fkey;
ALTER TABLE keyed_clients ADD COLUMN kind TEXT NOT NULL DEFAULT 'vmq' CHECK (kind IN ('vmq', 'smsforwarder', 'report'));

ALTER TABLE channel_accounts ADD COLUMN report_group BIGINT NOT NULL DEFAULT 0;
CREATE INDEX channel_accounts_report_group ON channel_accounts (report_group);

CREATE TABLE report_nonces (
  client_id BIGINT NOT NULL,
  ts        BIGINT NOT NULL,
  seen_at   BIGINT NOT NULL,
  PRIMARY KEY (client_id, ts)
);
`;
