// SQLite 022: money that paid no order and messages that were no payment, one partial index each.
export default `
CREATE INDEX reports_unmatched_money ON reports (created_at) WHERE outcome = 'unmatched' AND amount IS NOT NULL;
CREATE INDEX reports_unmatched_no_money ON reports (created_at) WHERE outcome = 'unmatched' AND amount IS NULL;
`;
