// Unmatched reports are bounded per signer and day (core/report-bounds.ts): one counter row per
// (signer, day) holds how many were stored and how many were only counted past the bound. The key
// is never the caller's text: a merchant's pid, a client's id, or the operator's secret.
export default `
CREATE TABLE report_bounds (
  key     TEXT    NOT NULL,
  day     INTEGER NOT NULL,
  stored  INTEGER NOT NULL DEFAULT 0,
  dropped INTEGER NOT NULL DEFAULT 0,
  last_at INTEGER NOT NULL,
  PRIMARY KEY (key, day)
) WITHOUT ROWID;
CREATE INDEX report_bounds_by_day ON report_bounds (day);
`;
