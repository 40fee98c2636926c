import type { OpenSession } from '../users';

/** Not signed in: the page answers a redirect to the sign-in form, back to `next` after. */
export class SignInRequired extends Error {
  constructor(readonly next: string | undefined) {
    super('Sign in to edit the calendar.');
  }
}

/** An editing page that cannot be shown or a form that cannot be taken: a page that says why. */
export class ManageRefusal extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly explanation: string,
    /** The session, when there is one: the page then shows the editor's menu. */
    readonly session?: OpenSession,
  ) {
    super(explanation);
  }
}
