// The dashboard lists money that paid no order apart from forwarded messages that were no payment
// (issue 28). On the (outcome, created_at) index one list would read every row of the other kind
// of the last 7 days before it found its 10 (up to report_unmatched_daily per signer and day); a
// partial index per kind, newest first, reads just the rows shown. Both are small: unmatched only.
export default `
CREATE INDEX reports_unmatched_money ON reports (created_at) WHERE outcome = 'unmatched' AND amount IS NOT NULL;
CREATE INDEX reports_unmatched_no_money ON reports (created_at) WHERE outcome = 'unmatched' AND amount IS NULL;
`;
