import { ChangeKinds } from '../database/change-kinds';
import { UnitOfWork } from '../database/unit-of-work';
import { newTestService } from '../../test/support/new-test-service';
import { ApplicationPasswordEntity } from './application-password.entity';
import { SessionEntity } from './session.entity';
import { SessionsRepository } from './sessions.repository';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';
import { UserInputError, UsersService } from './users.service';

// The user commands' rules (the CLI's user:create, user:delete …) without a database:
// users and their authored items in arrays, a unit of work whose transaction answers from
// them and records every statement. What is pinned is what is refused, and that a refusal writes
// nothing; the e2e suites (cli, last-administrator) prove the same over the real stack.

interface User {
  id: number;
  login: string;
  role: string;
}

function setup(users: User[], authored: Record<string, number[]> = {}) {
  const written: string[] = [];
  const recorded: string[] = [];
  const usersRepo = {
    findOne: jest.fn(async ({ where }: { where: { login?: string; id?: number } }) => users.find((u) => u.login === where.login || u.id === where.id) ?? null),
    exists: jest.fn(async ({ where }: { where: { login: string } }) => users.some((u) => u.login === where.login)),
    save: jest.fn(async (row: Omit<User, 'id'>) => {
      written.push(`save user ${row.login}`);
      return { id: 99, ...row };
    }),
    delete: jest.fn(async (where: { id: number }) => void written.push(`delete user ${where.id}`)),
    update: jest.fn(async (where: { id: number }, set: { role: string }) => void written.push(`user ${where.id} role ${set.role}`)),
    // The administrators' read (locked by the dialect): the rows its where clause asks for.
    createQueryBuilder: () => {
      const qb = { select: () => qb, where: () => qb, getMany: async () => users.filter((u) => u.role === 'administrator') };
      return qb;
    },
  };
  const passwords = {
    save: jest.fn(async (row: { userId: number }) => void written.push(`save password of ${row.userId}`)),
    delete: jest.fn(async (where: { userId: number }) => {
      written.push(`delete passwords of ${where.userId}`);
      return { affected: 2 };
    }),
  };
  const sessions = {
    delete: jest.fn(async (where: { userId: number }) => {
      written.push(`end sessions of ${where.userId}`);
      return { affected: 1 };
    }),
  };
  const repository = (entity: unknown) =>
    entity === UserEntity ? usersRepo : entity === ApplicationPasswordEntity ? passwords : entity === SessionEntity ? sessions : undefined;
  const tx = {
    getRepository: repository,
    query: jest.fn(async (sql: string, params: number[]) => {
      const table = /(?:FROM|UPDATE) (\w+)/.exec(sql)![1];
      if (sql.startsWith('SELECT')) return (authored[table] ?? []).map((id) => ({ id }));
      written.push(`${table} to ${params[0]}`);
      return [];
    }),
  };
  // The kinds whose rows name their author, as the events, venues and organizers features declare them.
  const kinds = new ChangeKinds([
    { type: 'event', state: { table: 'events' }, hasStatus: true },
    { type: 'venue', state: { table: 'venues' }, hasStatus: true },
    { type: 'organizer', state: { table: 'organizers' }, hasStatus: true },
  ]);
  const changes = { kinds, record: (type: string, id: number) => void recorded.push(`${type}:${id}`) };
  const unitOfWork = { run: jest.fn(async (work: (t: typeof tx, c: typeof changes) => Promise<unknown>) => work(tx, changes)) };
  const dialect = { lockForUpdate: jest.fn(<Q>(qb: Q) => qb) };
  const db = { getRepository: repository };
  const service = newTestService(UsersService, [
    { provide: UsersRepository, useValue: new UsersRepository(db as never, dialect as never) },
    { provide: SessionsRepository, useValue: new SessionsRepository(db as never) },
    { provide: UnitOfWork, useValue: unitOfWork },
  ]).sut;
  return { service, written, recorded, unitOfWork, dialect };
}

const ADMIN = { id: 1, login: 'root', role: 'administrator' };
const EDITOR = { id: 2, login: 'ed', role: 'editor' };

describe('UsersService.create', () => {
  it.each([
    ['a login with a space', 'a b', 'editor', undefined, /Invalid login/],
    ['an unknown role', 'new', 'boss', undefined, /Unknown role/],
    ['a short password', 'new', 'editor', 'short', /at least 8/],
    ['a login that exists', 'ed', 'editor', undefined, /already exists/],
  ])('refuses %s, writing nothing', async (_what, login, role, password, message) => {
    const { service, written } = setup([EDITOR]);
    await expect(service.create(login, role, password)).rejects.toThrow(message);
    await expect(service.create(login, role, password)).rejects.toBeInstanceOf(UserInputError);
    expect(written).toEqual([]);
  });

  it('stores the user and one application password, and answers the password in clear once', async () => {
    const { service, written } = setup([]);
    const created = await service.create('new', 'author');
    expect(created.password.replace(/ /g, '')).toHaveLength(24);
    expect(written).toEqual(['save user new', 'save password of 99']);
  });
});

describe('UsersService.setRole', () => {
  it('refuses to take the role of the last administrator, and reads the administrators locked', async () => {
    const { service, written, dialect } = setup([ADMIN, EDITOR]);
    await expect(service.setRole('root', 'editor')).rejects.toThrow(/"root" is the last administrator/);
    expect(dialect.lockForUpdate).toHaveBeenCalled();
    expect(written).toEqual([]);
  });

  it("changes a role, an administrator's too when another one is left", async () => {
    const { service, written } = setup([ADMIN, { id: 3, login: 'root2', role: 'administrator' }, EDITOR]);
    expect((await service.setRole('root', 'editor')).role).toBe('editor');
    expect((await service.setRole('ed', 'administrator')).role).toBe('administrator');
    expect(written).toEqual(['user 1 role editor', 'user 2 role administrator']);
  });

  it('refuses an unknown role and an unknown login', async () => {
    const { service } = setup([ADMIN]);
    await expect(service.setRole('root', 'owner')).rejects.toThrow(UserInputError);
    await expect(service.setRole('nobody', 'editor')).rejects.toThrow(/No user has the login "nobody"/);
  });
});

describe('UsersService.delete', () => {
  it('refuses the last administrator unless forced, and reads the administrators locked', async () => {
    const { service, written, dialect } = setup([ADMIN, EDITOR]);
    await expect(service.delete('root')).rejects.toThrow(/last administrator/);
    expect(written).toEqual([]);
    expect(dialect.lockForUpdate).toHaveBeenCalled();
    await service.delete('root', undefined, { force: true });
    expect(written).toEqual(['delete passwords of 1', 'end sessions of 1', 'delete user 1']);
  });

  it('an administrator with another one beside it is deleted without force', async () => {
    const { service, written } = setup([ADMIN, { id: 3, login: 'root2', role: 'administrator' }]);
    await service.delete('root');
    expect(written).toContain('delete user 1');
  });

  it('refuses an author of items unless someone takes them over; then every item is reassigned and recorded as changed', async () => {
    const items = { events: [10, 11], venues: [20], organizers: [] };
    const refused = setup([ADMIN, EDITOR], items);
    await expect(refused.service.delete('ed')).rejects.toThrow(/author of 3 /);
    expect(refused.written).toEqual([]);

    const { service, written, recorded } = setup([ADMIN, EDITOR], items);
    expect(await service.delete('ed', 'root')).toEqual({ reassigned: 3 });
    expect(written).toEqual(['events to 1', 'venues to 1', 'organizers to 1', 'delete passwords of 2', 'end sessions of 2', 'delete user 2']);
    expect(recorded).toEqual(['event:10', 'event:11', 'venue:20']);
  });

  it('refuses an unknown login, an unknown heir and a user as its own heir before any unit of work', async () => {
    const { service, unitOfWork } = setup([ADMIN, EDITOR]);
    await expect(service.delete('nobody')).rejects.toThrow(/No user has the login "nobody"/);
    await expect(service.delete('ed', 'nobody')).rejects.toThrow(/No user has the login "nobody"/);
    await expect(service.delete('ed', 'ed')).rejects.toThrow(/its own items/);
    expect(unitOfWork.run).not.toHaveBeenCalled();
  });
});

describe('UsersService passwords', () => {
  it('setPassword replaces every application password by one, in one unit of work', async () => {
    const { service, written, unitOfWork } = setup([EDITOR]);
    const clear = await service.setPassword('ed', 'a long enough password');
    expect(clear).toBe('a long enough password');
    expect(written).toEqual(['delete passwords of 2', 'save password of 2', 'end sessions of 2']);
    expect(unitOfWork.run).toHaveBeenCalledTimes(1);
    await expect(service.setPassword('ed', 'short')).rejects.toThrow(/at least 8/);
  });

  it('revoke answers how many passwords were removed', async () => {
    const { service } = setup([EDITOR]);
    expect(await service.revoke('ed')).toBe(2);
  });
});
