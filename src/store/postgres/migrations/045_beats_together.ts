// PostgreSQL 045: the heartbeats an instance has waiting written in one call. Every accepted report
// beats its client (Store.recordClientSeen), and 038 made each beat one call of xpay_client_seen on
// the beats' pool: a round trip and a transaction a report, the second costliest statement of a
// paid report (`bench/pg-statements.ts`, 2026-12-03: 0.28 ms of PostgreSQL's time a notification,
// after the payment's UPDATE), and without it 12-21 % more notifications a second (scratch).
//
// xpay_clients_seen takes the beats that waited while the instance's last call ran (beats.ts: one
// call in flight, a group commit), in the order each client's came; beats of one client in one
// second come merged (`n`: how many), which counts as n beats one after another: the first decides
// whether the client's stretch ends, then the stretch counts n. A listed client's beat that goes on
// with its stretch (nearly every beat) is one UPDATE whose condition says so; 038 read the row for
// update (a lock written to the row) and upserted it (an insert tried first) for every beat. A new
// client's, or one after a silence that ends the stretch, is written as 038 writes it.
// The clients' rows are locked in the order given (beats.ts sorts them by client), then the
// accounts' rows in id order, each moved to the latest second of the beats that name it and only
// forward, as 038 moves them: two instances' calls, and a create holding its accounts, never wait
// on each other in a circle. 038's xpay_client_seen stays for an instance of the previous version.
export default `
CREATE FUNCTION xpay_clients_seen(p_beats JSONB, p_accounts BIGINT[], p_seen BIGINT[])
RETURNS VOID LANGUAGE plpgsql AS $fn$
DECLARE
  b RECORD;
  v_track BIGINT;
  v_row RECORD;
BEGIN
  FOR b IN
    SELECT e ->> 'kind' AS kind, (e ->> 'pid')::bigint AS pid, e ->> 'name' AS name, (e ->> 'channel')::bigint AS channel,
           e ->> 'ext' AS ext, (e ->> 'seen')::bigint AS seen, (e ->> 'n')::bigint AS n, (e ->> 'history')::boolean AS history,
           (e ->> 'gap')::bigint AS gap, (e ->> 'only_listed')::boolean AS only_listed
    FROM jsonb_array_elements(p_beats) WITH ORDINALITY AS x(e, k) ORDER BY k
  LOOP
    v_track := CASE WHEN b.history THEN b.n ELSE 0 END;
    -- The usual beat: a listed client whose stretch goes on (or who keeps none). One UPDATE, which
    -- rechecks its condition on the row's newest version when another instance's beat moved it first.
    UPDATE clients SET
      channel_id = COALESCE(b.channel, channel_id),
      ext_data = CASE WHEN b.ext = '' THEN ext_data ELSE b.ext END,
      online_beats = online_beats + v_track,
      last_seen_at = GREATEST(last_seen_at, b.seen)
    WHERE kind = b.kind AND pid = b.pid AND name = b.name AND (NOT b.history OR (online_beats <> 0 AND b.seen - last_seen_at <= b.gap));
    CONTINUE WHEN FOUND;
    -- A new client, or a stretch that ends: 038's way.
    CONTINUE WHEN b.only_listed AND NOT EXISTS (SELECT 1 FROM clients WHERE kind = b.kind AND pid = b.pid AND name = b.name);
    IF b.history THEN
      -- The client's row locked first: two instances taking beats of one client file a stretch once.
      SELECT id, online_since, last_seen_at, online_beats INTO v_row FROM clients WHERE kind = b.kind AND pid = b.pid AND name = b.name FOR UPDATE;
      IF FOUND AND v_row.online_beats <> 0 AND b.seen - v_row.last_seen_at > b.gap THEN
        INSERT INTO client_online (client_id, start_at, end_at, beats) VALUES (v_row.id, v_row.online_since, v_row.last_seen_at, v_row.online_beats);
      END IF;
    END IF;
    INSERT INTO clients AS c (kind, pid, name, channel_id, ext_data, last_seen_at, online_since, online_beats)
    VALUES (b.kind, b.pid, b.name, b.channel, b.ext, b.seen, b.seen, v_track)
    ON CONFLICT (kind, pid, name) DO UPDATE SET
      channel_id = COALESCE(excluded.channel_id, c.channel_id),
      ext_data = CASE WHEN excluded.ext_data = '' THEN c.ext_data ELSE excluded.ext_data END,
      online_since = CASE WHEN v_track = 0 THEN c.online_since
        WHEN c.online_beats = 0 OR excluded.last_seen_at - c.last_seen_at > b.gap THEN excluded.last_seen_at
        ELSE c.online_since END,
      online_beats = CASE WHEN v_track = 0 THEN c.online_beats
        WHEN c.online_beats = 0 OR excluded.last_seen_at - c.last_seen_at > b.gap THEN v_track
        ELSE c.online_beats + v_track END,
      last_seen_at = GREATEST(c.last_seen_at, excluded.last_seen_at);
  END LOOP;
  FOR k IN 1 .. coalesce(cardinality(p_accounts), 0) LOOP
    UPDATE channel_accounts SET last_seen_at = p_seen[k] WHERE id = p_accounts[k] AND last_seen_at < p_seen[k];
  END LOOP;
END
$fn$;
`;
