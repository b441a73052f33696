/**
 * The auth feature's public surface (docs/frontend.md, "Boundaries"): Settings signs out, deletes
 * the account, changes the password and lists the signed-in devices through it. Who is signed in
 * is everyone's and lives in lib/session.
 */
export {
  authQueries,
  useChangePassword,
  useDeleteAccount,
  useEndSession,
  useLogOut,
  useLogOutEverywhere,
  type SessionJson,
} from './api';
