// The round-robin stamp of an account was a clock reading in seconds, so every account used
// within one second tied and the lowest id took the rest of that second's orders. It is now a
// sequence: each use takes the highest stamp + 1 (old values, Unix seconds, keep their order).
export default `
ALTER TABLE channel_accounts RENAME COLUMN last_used_at TO use_seq;
`;
