// SQLite 007: a V免签 client may be bound to the accounts its phone watches (comma-separated ids).
export default `
ALTER TABLE vmq_clients ADD COLUMN accounts TEXT NOT NULL DEFAULT '';
`;
