/**
 * The metric names a PromQL expression reads: identifiers used as vector
 * selectors (followed by `{`, `[`, or bare), once label matchers, strings,
 * ranges, grouping label lists, function calls and keywords are set aside.
 * Small and literal on purpose: it only has to understand the expressions
 * this repository writes (deploy/prometheus, deploy/grafana).
 */

/** Words PromQL reserves (binary operators, modifiers, literals). */
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
  'atan2',
]);

/** Clauses followed by a parenthesised list of label names, not of expressions. */
const LABEL_LIST = /\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g;

const IDENTIFIER = /(?<![\w.$:])[a-zA-Z_:][\w:]*/g;

export function metricNamesOf(expression: string): Set<string> {
  const bare = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(LABEL_LIST, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(IDENTIFIER)) {
    const name = match[0];
    const after = bare.slice(match.index + name.length).trimStart();
    if (KEYWORDS.has(name.toLowerCase()) || after.startsWith('(')) continue;
    names.add(name);
  }
  return names;
}

/**
 * The expression a Grafana variable query reads: label_values(expr, label)
 * reads `expr` (its second argument is a label name); label_values(label)
 * reads no metric.
 */
export function grafanaVariableExpression(query: string): string {
  const labelValues = /^\s*label_values\((.*)\)\s*$/s.exec(query);
  if (!labelValues) return query;
  const comma = labelValues[1].lastIndexOf(',');
  return comma < 0 ? '' : labelValues[1].slice(0, comma);
}
