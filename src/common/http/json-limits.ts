/**
 * How deeply a JSON body may nest objects and arrays. The deepest shape the API reads is a few
 * levels (an event with a nested venue); thousands of levels overflowed the stack of the
 * validation (class-transformer recurses) and answered 500.
 */
export const MAX_JSON_DEPTH = 32;

/** Does the JSON text nest arrays/objects deeper than `max`? One pass, strings skipped, no parsing. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
