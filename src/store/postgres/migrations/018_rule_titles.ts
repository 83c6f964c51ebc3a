// PostgreSQL 018, as SQLite's: a rule's title is its sender's names, one a line. A title stored as
// a literal alternation (^A$, ^(?:A|B)$, ^(A|B)$, no other metacharacter) becomes its names; any
// other is kept for the operator to read and the rule disabled with the reason. translate() drops
// the metacharacters, so a name that keeps its length has none; chr(92) is the backslash.
export default `
ALTER TABLE message_rules ADD COLUMN disabled TEXT NOT NULL DEFAULT '';

WITH parsed AS (
  SELECT id, CASE
      WHEN title LIKE '^(?:%)$' THEN substr(title, 5, length(title) - 6)
      WHEN title LIKE '^(%)$' AND substr(title, 3, 1) <> '?' THEN substr(title, 3, length(title) - 4)
      WHEN title LIKE '^%$' AND strpos(title, '|') = 0 THEN substr(title, 2, length(title) - 2)
    END AS names
  FROM message_rules
), usable AS (
  SELECT id, CASE
      WHEN names <> '' AND strpos('|' || names || '|', '||') = 0
        AND strpos(names, chr(92)) = 0 AND strpos(names, chr(10)) = 0 AND strpos(names, chr(13)) = 0
        AND length(translate(names, '.*+?()[]{}^$', '')) = length(names)
      THEN names
    END AS names
  FROM parsed
)
UPDATE message_rules m SET
  title = COALESCE(replace(u.names, '|', chr(10)), m.title),
  disabled = CASE WHEN u.names IS NULL
    THEN 'its title is a pattern, not a list of names: remove the rule and add it again with each exact sender name as its own --title (--title 微信支付 --title 微信收款助手)'
    ELSE '' END
FROM usable u WHERE u.id = m.id;
`;
