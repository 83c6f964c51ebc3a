// PostgreSQL 038: a report's heartbeat (Store.recordClientSeen) in one call. It was a transaction
// of its own: BEGIN, the client's row read for update, the upsert, one UPDATE a watched account and
// COMMIT, five round trips to the server for every payment report (pg_stat_statements under
// `bench/notify-ab.ts`, 2026-11-30: 17 statements a notification, each a round trip, and `sendto`
// the largest part of the gateway's CPU on this machine). The function runs the same statements in
// the same order (the client's row, then the accounts by id, as a create holds them), so what is
// written, and what waits for what, is as before; the call is its own transaction. An account's
// row is written only when its second moves, as on SQLite: on PostgreSQL every UPDATE is a new row
// version, also when it changes nothing.
export default `
CREATE OR REPLACE FUNCTION xpay_client_seen(p_kind TEXT, p_pid BIGINT, p_name TEXT, p_channel BIGINT, p_ext TEXT, p_seen BIGINT,
                                            p_history BOOLEAN, p_gap BIGINT, p_only_listed BOOLEAN, p_accounts BIGINT[])
RETURNS VOID LANGUAGE plpgsql AS $fn$
DECLARE
  v_track INT := CASE WHEN p_history THEN 1 ELSE 0 END;
  v_row RECORD;
  v_id BIGINT;
BEGIN
  IF NOT p_only_listed OR EXISTS (SELECT 1 FROM clients WHERE kind = p_kind AND pid = p_pid AND name = p_name) THEN
    IF p_history THEN
      -- The client's row locked first: two instances taking beats of one client file a stretch once.
      SELECT id, online_since, last_seen_at, online_beats INTO v_row FROM clients WHERE kind = p_kind AND pid = p_pid AND name = p_name FOR UPDATE;
      IF FOUND AND v_row.online_beats <> 0 AND p_seen - v_row.last_seen_at > p_gap THEN
        INSERT INTO client_online (client_id, start_at, end_at, beats) VALUES (v_row.id, v_row.online_since, v_row.last_seen_at, v_row.online_beats);
      END IF;
    END IF;
    INSERT INTO clients AS c (kind, pid, name, channel_id, ext_data, last_seen_at, online_since, online_beats)
    VALUES (p_kind, p_pid, p_name, p_channel, p_ext, p_seen, p_seen, v_track)
    ON CONFLICT (kind, pid, name) DO UPDATE SET
      channel_id = COALESCE(excluded.channel_id, c.channel_id),
      ext_data = CASE WHEN excluded.ext_data = '' THEN c.ext_data ELSE excluded.ext_data END,
      online_since = CASE WHEN v_track = 0 THEN c.online_since
        WHEN c.online_beats = 0 OR excluded.last_seen_at - c.last_seen_at > p_gap THEN excluded.last_seen_at
        ELSE c.online_since END,
      online_beats = CASE WHEN v_track = 0 THEN c.online_beats
        WHEN c.online_beats = 0 OR excluded.last_seen_at - c.last_seen_at > p_gap THEN 1
        ELSE c.online_beats + 1 END,
      last_seen_at = GREATEST(c.last_seen_at, excluded.last_seen_at);
  END IF;
  FOR v_id IN SELECT DISTINCT a FROM unnest(p_accounts) AS a ORDER BY a LOOP
    UPDATE channel_accounts SET last_seen_at = p_seen WHERE id = v_id AND last_seen_at < p_seen;
  END LOOP;
END
$fn$;
`;
