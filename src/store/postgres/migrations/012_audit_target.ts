// SQLite 012: an order's page reads the audit entries whose target is `order:<trade_no>`.
export default `
CREATE INDEX audit_log_target ON audit_log (target, id);
`;
