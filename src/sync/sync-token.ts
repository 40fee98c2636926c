/**
 * The opaque `since` tokens of the change feed (sync.md): a change-log seq, written so that a
 * client treats it as a string and a typo is told from a token. `s1.` names the form.
 */
const PREFIX = 's1.';

export function encodeSyncToken(seq: number): string {
  return `${PREFIX}${Buffer.from(String(seq)).toString('base64url')}`;
}

/** The seq a token names, or null when it is not one of ours. */
export function decodeSyncToken(token: string): number | null {
  if (!token.startsWith(PREFIX)) return null;
  const body = token.slice(PREFIX.length);
  if (!/^[A-Za-z0-9_-]{1,24}$/.test(body)) return null;
  const text = Buffer.from(body, 'base64url').toString();
  if (!/^(0|[1-9]\d{0,15})$/.test(text)) return null;
  const seq = Number(text);
  return Number.isSafeInteger(seq) && encodeSyncToken(seq) === token ? seq : null;
}
