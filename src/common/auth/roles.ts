export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** The authenticated caller; `null` stands for an anonymous reader. */
export interface Actor {
  id: number;
  login: string;
  role: Role;
}
