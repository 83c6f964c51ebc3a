// A rule's title is a list of the sender's exact names, never a pattern (issue 27, item 9): the
// title column now holds the names one a line. A title stored before as a literal alternation,
// ^微信支付$, ^(?:微信支付|微信收款助手)$ or ^(微信支付|微信收款助手)$ with no other
// metacharacter, becomes its names. Any other title (a character class, a repetition, an escape:
// ^(?:微信支付|[\u4e00-\u9fa5]{3})$ took a chat from 王小明) cannot be read as names: the rule keeps
// its text for the operator to read and is disabled with the reason (`xpay rules list` shows it;
// the report API skips it). char(92) is the backslash, char(10) and char(13) line breaks.
export default `
ALTER TABLE message_rules ADD COLUMN disabled TEXT NOT NULL DEFAULT '';

CREATE TEMP TABLE rule_names_018 AS
SELECT id, CASE
    WHEN title LIKE '^(?:%)$' THEN substr(title, 5, length(title) - 6)
    WHEN title LIKE '^(%)$' AND substr(title, 3, 1) <> '?' THEN substr(title, 3, length(title) - 4)
    WHEN title LIKE '^%$' AND instr(title, '|') = 0 THEN substr(title, 2, length(title) - 2)
  END AS names
FROM message_rules;

UPDATE rule_names_018 SET names = NULL WHERE names IS NOT NULL AND (
  names = '' OR instr('|' || names || '|', '||') > 0
  OR instr(names, char(92)) > 0 OR instr(names, '.') > 0 OR instr(names, '*') > 0 OR instr(names, '+') > 0
  OR instr(names, '?') > 0 OR instr(names, '(') > 0 OR instr(names, ')') > 0 OR instr(names, '[') > 0
  OR instr(names, ']') > 0 OR instr(names, '{') > 0 OR instr(names, '}') > 0 OR instr(names, '^') > 0
  OR instr(names, '$') > 0 OR instr(names, char(10)) > 0 OR instr(names, char(13)) > 0);

UPDATE message_rules SET title = replace((SELECT names FROM rule_names_018 n WHERE n.id = message_rules.id), '|', char(10))
WHERE id IN (SELECT id FROM rule_names_018 WHERE names IS NOT NULL);

UPDATE message_rules SET disabled = 'its title is a pattern, not a list of names: remove the rule and add it again with each exact sender name as its own --title (--title 微信支付 --title 微信收款助手)'
WHERE id IN (SELECT id FROM rule_names_018 WHERE names IS NULL);

DROP TABLE rule_names_018;
`;
