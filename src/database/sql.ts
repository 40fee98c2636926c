/** `?, ?, …`: one bound-value placeholder per value, for `IN (…)` lists in plain SQL. Never call with an empty list. */
export function placeholders(values: readonly unknown[]): string {
  if (values.length === 0) throw new RangeError('An IN list needs at least one value.');
  return values.map(() => '?').join(', ');
}
