// A V免签 push names no account, only a pay type and an amount. A merchant with two Alipay
// accounts (two phones) can hold the same payable amount on both, and such a push would be
// ambiguous; a client may therefore be bound to the accounts its phone watches (account ids,
// comma-separated; empty: every account of the merchant), one per pay type.
export default `
ALTER TABLE vmq_clients ADD COLUMN accounts TEXT NOT NULL DEFAULT '';
`;
