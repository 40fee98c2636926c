/**
 * The most a response header may take on the wire (`Name: value\r\n`). Node's own HTTP client
 * refuses answers whose headers together pass 16 KB (HPE_HEADER_OVERFLOW), and proxies commonly
 * keep an upstream's headers in one 4–8 KB buffer; a header that echoes its request (a URL, a
 * list of ids) could otherwise grow past both.
 */
export const MAX_HEADER_BYTES = 8 * 1024;

/** Would `name: value` stay under MAX_HEADER_BYTES? */
export function fitsInHeader(name: string, value: string): boolean {
  return Buffer.byteLength(`${name}: ${value}\r\n`) < MAX_HEADER_BYTES;
}
