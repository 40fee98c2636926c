// Line folding (RFC 5545 §3.1): lines longer than 75 octets continue on the next line after
// CRLF and a space. ical-generator folds every document it writes, counting each character's
// octets with a new TextEncoder: some 90% of the time of a 100-event feed (about a second for
// a feed of 1000). This does the same fold, break for break (fold.spec.ts checks it against
// ical-generator's own foldLines), counting octets from the UTF-16 code units.

/** Octets of the character starting at `i` in UTF-8, and how many code units it takes. */
function charAt(text: string, i: number): [octets: number, units: number] {
  const code = text.charCodeAt(i);
  if (code < 0x80) return [1, 1];
  if (code < 0x800) return [2, 1];
  if (code >= 0xd800 && code <= 0xdbff) {
    // As ical-generator does: a high surrogate goes with whatever follows it.
    if (i + 1 >= text.length) return [3, 1];
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return [4, 2];
    return [3 + unitOctets(next), 2]; // U+FFFD, then the unit on its own
  }
  return [3, 1]; // the rest of the BMP; a lone low surrogate is written as U+FFFD, 3 octets too
}

/** Octets of one UTF-16 code unit written alone (a surrogate alone is U+FFFD). */
const unitOctets = (code: number) => (code < 0x80 ? 1 : code < 0x800 ? 2 : 3);

function foldLine(line: string): string {
  // Most lines are short ASCII: nothing to do.
  if (line.length <= 74 && /^[\x00-\x7f]*$/.test(line)) return line;
  const parts: string[] = [];
  let start = 0;
  let octets = 0;
  for (let i = 0; i < line.length;) {
    const [size, units] = charAt(line, i);
    octets += size;
    if (octets > 74) {
      parts.push(line.slice(start, i));
      start = i;
      octets = size;
    }
    i += units;
  }
  parts.push(line.slice(start));
  return parts.join('\r\n ');
}

/** Folds every CRLF-separated line of `text` at 75 octets (the first part of a line at 74, as ical-generator does). */
export function foldLines(text: string): string {
  return text.split('\r\n').map(foldLine).join('\r\n');
}
