// A report's reason as a code with its parameters (core/reasons.ts), beside the English text the
// report API answers: the console words the code in the page's language. Rows written before have
// no code and keep being read through the console's mapping of the English text (admin/reason-text.ts);
// they are not backfilled, since reading the code back out of free text is that same guesswork.
export default `
ALTER TABLE reports ADD COLUMN reason_code TEXT;
ALTER TABLE reports ADD COLUMN reason_args TEXT;
`;
