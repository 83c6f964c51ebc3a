// An order's page shows what operators did to it (the audit entries whose target is
// `order:<trade_no>`): without this index each view would read the whole audit log.
export default `
CREATE INDEX audit_log_target ON audit_log (target, id);
`;
