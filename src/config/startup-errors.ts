/**
 * One line for an operator about what failed at start and where: host:port of the database or
 * the path of the SQLite file, never a password: an operator reads a line, not a stack trace.
 */
export function describeStartupError(err: unknown, databaseUrl?: string, listen?: { host: string; port: number }): string {
  const e = err as { code?: string; errno?: number; message?: string; address?: string; port?: number; sqlMessage?: string };
  const code = e?.code ?? '';
  const where = databaseWhere(databaseUrl);
  if (code === 'EADDRINUSE' || (code === 'EACCES' && listen)) {
    const at = listen ? `${listen.host}:${listen.port}` : `${e.address ?? ''}:${e.port ?? ''}`;
    return code === 'EADDRINUSE' ? `cannot listen on ${at}: the port is already in use` : `cannot listen on ${at}: permission denied`;
  }
  if (['ECONNREFUSED', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'PROTOCOL_CONNECTION_LOST'].includes(code)) {
    return `cannot reach the database at ${where} (${code}${CONNECT_REASONS[code] ? `: ${CONNECT_REASONS[code]}` : ''})`;
  }
  if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR') return `the database at ${where} refused the login (${code})`;
  if (code === 'ER_BAD_DB_ERROR') return `the database named in DATABASE_URL does not exist on ${where} (${code})`;
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'ENOTDIR' || code === 'EEXIST') return `cannot open the SQLite file ${where} (${code})`;
  if ((err as Error)?.name === 'DatabasePathError') return String(e.message);
  const first = String(e?.message ?? err).split('\n')[0];
  return `calendar-events could not start: ${redact(first)}`;
}

const CONNECT_REASONS: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there',
  ETIMEDOUT: 'no answer in time',
  ENOTFOUND: 'unknown host name',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EAI_AGAIN: 'name lookup failed',
  PROTOCOL_CONNECTION_LOST: 'the server closed the connection',
};

/** host:port of a mysql:// URL, the path of a sqlite: URL (default data/calendar.sqlite). */
export function databaseWhere(url = 'sqlite:data/calendar.sqlite'): string {
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length) || 'data/calendar.sqlite';
  try {
    const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
    return `${parsed.hostname}:${parsed.port || '3306'}`;
  } catch {
    return 'the configured database';
  }
}

/** No password of a URL in a message. */
function redact(text: string): string {
  return text.replace(/\/\/([^:/@\s]+):[^@\s]*@/g, '//$1:***@');
}

/** Is this a failure to reach the database at all (worth waiting for at start)? */
export function isUnreachable(err: unknown): boolean {
  const code = (err as { code?: string })?.code ?? '';
  return ['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'PROTOCOL_CONNECTION_LOST', 'ER_CON_COUNT_ERROR'].includes(code);
}
