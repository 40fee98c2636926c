/**
 * The `WWW-Authenticate` value of every 401 (RFC 9110 §11.6.1 requires one; RFC 7617 for Basic).
 * The realm names the site (CALENDAR_SITE_TITLE) as a quoted-string a header can carry: accents
 * taken off, anything else outside printable ASCII left out, `"` and `\` escaped; `Events` when
 * nothing is left. `charset="UTF-8"` tells clients that credentials are read as UTF-8 (auth.service).
 */
export function basicChallenge(siteTitle: string): string {
  const ascii = siteTitle
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();
  const realm = (ascii || 'Events').replace(/["\\]/g, (c) => `\\${c}`);
  return `Basic realm="${realm}", charset="UTF-8"`;
}
