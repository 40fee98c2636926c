import { databaseWhere, describeStartupError } from './startup-errors';

describe('describeStartupError: one line naming what failed and where', () => {
  const mysql = 'mysql://calendar:s3cret@db.example:3307/calendar';
  it.each([
    [{ code: 'ECONNREFUSED' }, mysql, 'cannot reach the database at db.example:3307 (ECONNREFUSED: nothing listens there)'],
    [
      { code: 'ER_ACCESS_DENIED_ERROR', message: "Access denied for user 'calendar'" },
      mysql,
      'the database at db.example:3307 refused the login (ER_ACCESS_DENIED_ERROR)',
    ],
    [{ code: 'ER_BAD_DB_ERROR' }, mysql, 'the database named in DATABASE_URL does not exist on db.example:3307 (ER_BAD_DB_ERROR)'],
    [{ code: 'SQLITE_CANTOPEN' }, 'sqlite:/etc/passwd/x.sqlite', 'cannot open the SQLite file /etc/passwd/x.sqlite (SQLITE_CANTOPEN)'],
    [
      new Error(`connect to ${mysql} failed\n    at x (y.js:1:1)`),
      mysql,
      'calendar-events could not start: connect to mysql://calendar:***@db.example:3307/calendar failed',
    ],
  ])('%j', (err, url, line) => {
    const text = describeStartupError(err, url);
    expect(text).toBe(line);
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('\n');
  });

  it('names the address of a port in use', () => {
    expect(describeStartupError({ code: 'EADDRINUSE' }, undefined, { host: '127.0.0.1', port: 3000 })).toBe(
      'cannot listen on 127.0.0.1:3000: the port is already in use',
    );
  });

  it('reads where a database is without its password', () => {
    expect(databaseWhere('mysql://u:p@127.0.0.1/db')).toBe('127.0.0.1:3306');
    expect(databaseWhere(undefined)).toBe('data/calendar.sqlite');
  });
});
