import { Body, Controller, Get, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ROLES } from '../common/auth';
import { SessionsService, UserEntity, UserInputError, UsersService } from '../users';
import type { FieldError } from './form-errors';
import { ManageErrorsFilter } from './manage-errors.filter';
import { ManageRefusal } from './manage-refusals';
import { Editor, type EditorSession, ManageGuard } from './manage-session';
import { ManageViews } from './manage-views';
import { ManageRoute } from './sign-in.controller';

type Form = Record<string, unknown> | undefined;

/** Users listed per page. */
export const USERS_PER_PAGE = 50;
/** At most this many users are offered as the heir of a deleted user's items. */
const HEIRS_OFFERED = 500;

/**
 * The users page (editing.md §2, administrators only): the users with their roles, adding one,
 * changing a role, setting a password, ending sessions and deleting, all through UsersService as
 * the CLI does, with its refusals (the last administrator) shown as the form's errors.
 */
@ApiExcludeController()
@UseFilters(ManageErrorsFilter)
@UseGuards(ManageGuard)
@Controller('manage/users')
export class ManageUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly views: ManageViews,
  ) {}

  @Get()
  @ManageRoute()
  async list(@Editor() editor: EditorSession, @Query('page') pageParam: unknown, @Res() reply: FastifyReply) {
    administrator(editor);
    const page = Math.max(1, Math.min(1_000_000, Number.parseInt(String(pageParam ?? '1'), 10) || 1));
    const { users, total } = await this.users.page(page, USERS_PER_PAGE);
    const pages = Math.max(1, Math.ceil(total / USERS_PER_PAGE));
    return this.views.send(reply, {
      template: 'users',
      title: 'Users',
      current: 'users',
      editor,
      data: { users: users.map(row), total, page, pages, self: editor.actor.id },
    });
  }

  @Get('new')
  @ManageRoute()
  newForm(@Editor() editor: EditorSession, @Res() reply: FastifyReply) {
    administrator(editor);
    return this.showNew(reply, editor, { login: '', role: 'author' }, []);
  }

  @Post('new')
  @ManageRoute()
  async create(@Editor() editor: EditorSession, @Body() body: Form, @Res() reply: FastifyReply) {
    administrator(editor);
    const values = { login: text(body?.login).trim(), role: text(body?.role) };
    const password = text(body?.password);
    if (values.login === '') return this.showNew(reply, editor, values, [{ field: 'login', message: 'Enter a login.' }]);
    try {
      const created = await this.users.create(values.login, values.role, password === '' ? undefined : password);
      // The password is shown in this answer only: it is stored hashed, nobody can see it again.
      return this.views.send(reply, {
        template: 'users-created',
        title: `User ${created.user.login} added`,
        current: 'users',
        editor,
        status: 201,
        data: { user: row(created.user), password: created.password, generated: password === '' },
      });
    } catch (err) {
      if (!(err instanceof UserInputError)) throw err;
      return this.showNew(reply, editor, values, [{ field: fieldOfCreate(err.message), message: err.message }]);
    }
  }

  @Get(':id')
  @ManageRoute()
  async edit(@Editor() editor: EditorSession, @Param('id') id: string, @Query('done') done: unknown, @Res() reply: FastifyReply) {
    administrator(editor);
    const user = await this.find(id);
    return this.showUser(reply, editor, user, { notice: notices[String(done)] });
  }

  @Post(':id/role')
  @ManageRoute()
  async role(@Editor() editor: EditorSession, @Param('id') id: string, @Body() body: Form, @Res() reply: FastifyReply) {
    administrator(editor);
    const user = await this.find(id);
    const role = text(body?.role);
    try {
      await this.users.setRole(user.login, role);
    } catch (err) {
      if (!(err instanceof UserInputError)) throw err;
      return this.showUser(reply, editor, user, { errors: [{ field: 'role', message: forTheWeb(err.message) }], role }, 400);
    }
    return reply.redirect(`${this.views.path('users', user.id)}?done=role`, 303);
  }

  @Post(':id/password')
  @ManageRoute()
  async password(@Editor() editor: EditorSession, @Param('id') id: string, @Body() body: Form, @Res() reply: FastifyReply) {
    administrator(editor);
    const user = await this.find(id);
    const given = text(body?.password);
    let clear: string;
    try {
      // A new password ends the user's sessions (UsersService.setPassword), this editor's too when it is their own.
      clear = await this.users.setPassword(user.login, given === '' ? undefined : given);
    } catch (err) {
      if (!(err instanceof UserInputError)) throw err;
      return this.showUser(reply, editor, user, { errors: [{ field: 'password', message: err.message }] }, 400);
    }
    return this.views.send(reply, {
      template: 'users-created',
      title: `New password of ${user.login}`,
      current: 'users',
      editor: user.id === editor.actor.id ? undefined : editor,
      data: { user: row(user), password: clear, generated: given === '', changed: true, signedOut: user.id === editor.actor.id },
    });
  }

  @Post(':id/sessions')
  @ManageRoute()
  async endSessions(@Editor() editor: EditorSession, @Param('id') id: string, @Res() reply: FastifyReply) {
    administrator(editor);
    const user = await this.find(id);
    await this.sessions.endAllOf(user.id);
    if (user.id === editor.actor.id) return reply.redirect(`${this.views.login}?signed_out=1`, 303);
    return reply.redirect(`${this.views.path('users', user.id)}?done=sessions`, 303);
  }

  @Get(':id/delete')
  @ManageRoute()
  async confirmDelete(@Editor() editor: EditorSession, @Param('id') id: string, @Res() reply: FastifyReply) {
    administrator(editor);
    const user = await this.find(id);
    return this.showDelete(reply, editor, user, '', []);
  }

  @Post(':id/delete')
  @ManageRoute()
  async delete(@Editor() editor: EditorSession, @Param('id') id: string, @Body() body: Form, @Res() reply: FastifyReply) {
    administrator(editor);
    const user = await this.find(id);
    const heirId = text(body?.reassign);
    let heir: UserEntity | null = null;
    if (heirId !== '') {
      heir = /^\d{1,10}$/.test(heirId) ? await this.users.findById(Number(heirId)) : null;
      if (!heir) return this.showDelete(reply, editor, user, heirId, [{ field: 'reassign', message: 'Choose a user who exists.' }]);
    }
    try {
      await this.users.delete(user.login, heir?.login);
    } catch (err) {
      if (!(err instanceof UserInputError)) throw err;
      return this.showDelete(reply, editor, user, heirId, [{ field: 'reassign', message: forTheWeb(err.message) }]);
    }
    if (user.id === editor.actor.id) return reply.redirect(`${this.views.login}?signed_out=1`, 303);
    return this.views.send(reply, {
      template: 'message',
      title: `User ${user.login} deleted`,
      current: 'users',
      editor,
      data: {
        title: `User ${user.login} deleted`,
        explanation: heir ? `Their events, venues and organizers now belong to ${heir.login}.` : 'They had no events, venues or organizers.',
        back: { href: this.views.path('users'), label: 'Back to the users' },
      },
    });
  }

  private async find(id: string): Promise<UserEntity> {
    const user = /^\d{1,10}$/.test(id) ? await this.users.findById(Number(id)) : null;
    if (!user) throw new ManageRefusal(404, 'No such user', 'This user does not exist, or was deleted meanwhile.');
    return user;
  }

  private showNew(reply: FastifyReply, editor: EditorSession, values: { login: string; role: string }, errors: FieldError[]) {
    return this.views.send(reply, {
      template: 'users-new',
      title: 'Add a user',
      current: 'users',
      editor,
      status: errors.length > 0 ? 400 : 200,
      data: { values, errors, roles: roleOptions() },
    });
  }

  private showUser(
    reply: FastifyReply,
    editor: EditorSession,
    user: UserEntity,
    extra: { notice?: string; errors?: FieldError[]; role?: string },
    status = 200,
  ) {
    return this.views.send(reply, {
      template: 'users-edit',
      title: `User ${user.login}`,
      current: 'users',
      editor,
      status,
      data: {
        user: row(user),
        role: extra.role ?? user.role,
        roles: roleOptions(),
        errors: extra.errors ?? [],
        notice: extra.notice,
        self: user.id === editor.actor.id,
      },
    });
  }

  private async showDelete(reply: FastifyReply, editor: EditorSession, user: UserEntity, heir: string, errors: FieldError[]) {
    const { users } = await this.users.page(1, HEIRS_OFFERED);
    const heirs = users.filter((u) => u.id !== user.id && u.role !== 'subscriber').map((u) => ({ value: String(u.id), label: `${u.login} (${u.role})` }));
    return this.views.send(reply, {
      template: 'users-delete',
      title: `Delete user ${user.login}?`,
      current: 'users',
      editor,
      status: errors.length > 0 ? 400 : 200,
      data: { user: row(user), heirs: [{ value: '', label: 'Nobody (only if they authored nothing)' }, ...heirs], heir, errors },
    });
  }
}

const notices: Record<string, string> = {
  role: 'The role was changed.',
  sessions: 'Their sessions were ended: they are signed out everywhere.',
};

/** Only administrators manage users (auth.md §2): the others get a page that says so. */
export function administrator(editor: EditorSession): void {
  if (editor.actor.role !== 'administrator') {
    throw new ManageRefusal(403, 'Administrators only', 'Only an administrator can open this page.', editor.session);
  }
}

function row(user: UserEntity) {
  return { id: user.id, login: user.login, role: user.role, created: user.createdUtc };
}

function roleOptions() {
  return ROLES.map((r) => ({ value: r, label: r.charAt(0).toUpperCase() + r.slice(1) }));
}

function fieldOfCreate(message: string): string {
  if (message.includes('role')) return 'role';
  if (message.includes('password')) return 'password';
  return 'login';
}

/** The CLI's refusal in the words of a page: the page has no `--force`. */
function forTheWeb(message: string): string {
  return message.replace(/,? or add --force to delete it anyway\./, '.').replace(/ with --reassign LOGIN\./, ' below.');
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 1000) : '';
}
