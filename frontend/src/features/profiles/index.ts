/**
 * The profiles feature's public surface (docs/frontend.md, "Boundaries"): search reads the
 * listening list and toggles listening through it; Settings lists and unblocks blocked users.
 */
export {
  BLOCKED_LIST_SIGN_IN,
  LISTEN_MESSAGES,
  LISTEN_STATES,
  profileQueries,
  useBlockToggle,
  useListenAction,
  useListening,
  type ListeningState,
  type UserCardJson,
} from './api';
export { ListenButton } from './components/listen-button';
