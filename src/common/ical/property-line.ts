/** One property of a component, its value already in iCalendar form (RFC 5545 §3.1: `NAME;PARAM=v:value`). */
export interface PropertyLine {
  name: string;
  params?: Record<string, string>;
  value: string;
}

/**
 * The content line of a property given by a caller (an extension's VEVENT property): the name
 * and parameter names reduced to what §3.1 allows, parameter values quoted when they hold a
 * separator (a `"` cannot be quoted, so it goes), and line breaks in the value escaped as a
 * TEXT value writes them, so that no value can end the line and start a property of its own.
 * Unfolded: the document is folded as a whole.
 */
export function propertyLine(p: PropertyLine): string {
  const name = (s: string) => s.toUpperCase().replace(/[^A-Z0-9-]/g, '');
  const params = Object.entries(p.params ?? {}).map(([key, raw]) => {
    const value = raw.replace(/["\r\n]/g, '');
    return `;${name(key)}=${/[:;,]/.test(value) ? `"${value}"` : value}`;
  });
  return `${name(p.name)}${params.join('')}:${p.value.replace(/\r\n|\r|\n/g, '\\n')}`;
}
