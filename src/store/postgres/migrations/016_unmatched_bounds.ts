// PostgreSQL 016: unmatched reports bounded per signer and day (core/report-bounds.ts).
export default `
CREATE TABLE report_bounds (
  key     TEXT   NOT NULL,
  day     BIGINT NOT NULL,
  stored  BIGINT NOT NULL DEFAULT 0,
  dropped BIGINT NOT NULL DEFAULT 0,
  last_at BIGINT NOT NULL,
  PRIMARY KEY (key, day)
);
CREATE INDEX report_bounds_by_day ON report_bounds (day);
`;
