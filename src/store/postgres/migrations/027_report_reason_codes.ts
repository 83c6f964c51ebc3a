// PostgreSQL 024, as SQLite's: a report's reason as a code (reason_code) and its parameters
// (reason_args, JSON text); older rows keep NULL and are read through their English text.
export default `
ALTER TABLE reports ADD COLUMN reason_code TEXT;
ALTER TABLE reports ADD COLUMN reason_args TEXT;
`;
