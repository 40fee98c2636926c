import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { type Actor, can } from '../common/auth';
import { InstalledFeatures } from '../common/feature/feature';
import { AppConfig } from '../config/app-config';
import { MANAGE_FEATURE } from '../manage';
import { UsersService } from '../users';
import { SUBMISSIONS_AUTHOR, SUBMISSIONS_MODE } from './submission-settings';

/** Why the service cannot start with this submissions configuration; main() prints the message. */
export class SubmissionsConfigError extends Error {
  override name = 'SubmissionsConfigError';
}

/**
 * The user submitted events are written by (editing.md §4, §8): CALENDAR_SUBMISSIONS_AUTHOR, or
 * the first administrator when it is empty. A login given that does not exist, or whose role may
 * not create events, stops the start; so does CALENDAR_SUBMISSIONS=users without the editing
 * pages, whose sign-in it needs. The user is read again for every submission, so a role changed
 * or a user deleted since the start is seen at once.
 */
@Injectable()
export class SubmissionAuthor implements OnApplicationBootstrap {
  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly installed: InstalledFeatures,
  ) {}

  /** Runs after the users feature's own start (its bootstrap administrator is made by then). */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.get(SUBMISSIONS_MODE) === 'users' && !this.signInAvailable) {
      throw new SubmissionsConfigError('CALENDAR_SUBMISSIONS=users needs the editing pages to sign in: set CALENDAR_MANAGE=on, or CALENDAR_SUBMISSIONS=anyone');
    }
    const login = this.config.get(SUBMISSIONS_AUTHOR);
    if (login === '') return;
    const user = await this.users.findByLogin(login);
    if (!user) {
      throw new SubmissionsConfigError(
        `CALENDAR_SUBMISSIONS_AUTHOR names the login "${login}", which does not exist: create it (npm run cli -- user:create ${login} --role editor) or name another`,
      );
    }
    if (!can(user, 'create_items')) {
      throw new SubmissionsConfigError(
        `CALENDAR_SUBMISSIONS_AUTHOR names "${login}", a ${user.role}, who may not write events: give it another role or name another user`,
      );
    }
  }

  /** Whether the editing pages (their sign-in form) are on. */
  get signInAvailable(): boolean {
    return this.installed.enabled.includes(MANAGE_FEATURE);
  }

  /** The author as an actor of the write, or null when there is none now (no administrator yet, or the user gone or without the right). */
  async actor(): Promise<Actor | null> {
    const login = this.config.get(SUBMISSIONS_AUTHOR);
    const user = login === '' ? await this.users.firstAdministrator() : await this.users.findByLogin(login);
    if (!user) return null;
    const actor: Actor = { id: user.id, login: user.login, role: user.role };
    return can(actor, 'create_items') ? actor : null;
  }
}
