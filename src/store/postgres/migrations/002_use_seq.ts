// SQLite 002: the round-robin stamp becomes a sequence number (use_seq). Several instances take
// accounts at once here, so "the highest stamp + 1" could hand two accounts the same stamp: each
// use takes the next value of a database sequence instead, which never repeats across instances.
// The sequence starts above the stamps the table holds (a database copied in from SQLite).
export default `
ALTER TABLE channel_accounts RENAME COLUMN last_used_at TO use_seq;
CREATE SEQUENCE channel_accounts_use_seq AS BIGINT;
SELECT setval('channel_accounts_use_seq', GREATEST((SELECT MAX(use_seq) FROM channel_accounts), 0) + 1, false);
`;
