// PostgreSQL 033: the accounts' table pruned as it goes. Every create locks its account and moves
// the account's round-robin stamp, so the few rows of channel_accounts get a new version per create
// and the dead ones stay on the page until PostgreSQL prunes it, which at the default fillfactor
// it does only once the page is nine tenths full: dozens of dead versions per live row. Every
// create's scan of the candidates checked each of them, and their xmax is a MultiXact (the unit's
// lock carried onto its update's version, then joined by the batch's next unit:
// docs/decisions/stores.md, 032), whose members it read every time: GetMultiXactIdMembers held
// 2-7 % of the backends' CPU under `npm run bench:pg` (perf, 2026-11-29). At fillfactor 10 a page
// is pruned whenever it is accessed with more than a tenth of it used, so the dead versions are
// cleared as soon as no snapshot can see them. The table holds one row per receiving account: ten
// times its size is a few pages. Nothing else changes; SQLite's 033 is nothing (no MVCC versions).
export default `ALTER TABLE channel_accounts SET (fillfactor = 10);`;
