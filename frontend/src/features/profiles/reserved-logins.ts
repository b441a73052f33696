/**
 * Logins the server refuses (issue 16, docs/security.md): the server's list (`RESERVED_LOGINS`
 * and `RESERVED_LOGIN_PART` in crates/values/src/text.rs) and its message, checked before a save
 * so the form can say so at once. The server stays the judge: its 400 is shown beside the field
 * too, should this copy ever be behind. The Rust test
 * `the_web_apps_reserved_logins_are_the_servers` (crates/values) reads this file and fails when
 * the lists, the part or the message differ: keep one quoted login a line.
 */

export const RESERVED_LOGINS: readonly string[] = [
  'abuse',
  'admin',
  'admins',
  'administrator',
  'administrators',
  'all',
  'anonymous',
  'api',
  'contact',
  'everyone',
  'help',
  'helpdesk',
  'here',
  'hostmaster',
  'info',
  'mod',
  'moderator',
  'moderators',
  'mods',
  'noreply',
  'null',
  'official',
  'owner',
  'postmaster',
  'root',
  'security',
  'staff',
  'superuser',
  'support',
  'sysadmin',
  'system',
  'team',
  'undefined',
  'webmaster',
];

/** No login may contain it, however written. */
export const RESERVED_LOGIN_PART = 'selfsound';

export const RESERVED_LOGIN_MESSAGE = 'This login is reserved. Please choose another one.';

const RESERVED = new Set(RESERVED_LOGINS);

/**
 * Whether the server would refuse `login` as reserved: whatever the case and with or without `_`
 * and `-` in it (`Ad_Min` is `admin`; `@`, dots and spaces are never part of a login), and any
 * login containing "selfsound".
 */
export function isReservedLogin(login: string): boolean {
  const bare = login.replace(/[_\-@.\s]/g, '').toLowerCase();
  return bare.includes(RESERVED_LOGIN_PART) || RESERVED.has(bare);
}
