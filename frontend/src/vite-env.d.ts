/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** The sampled instruments' files (sound-banks.ts), or null when the build had no SoundFont. */
declare module 'virtual:sound-banks' {
  /** `gm-0` … `gm-15` (a General MIDI family each) and `drums`, to their addresses. */
  export const SOUND_BANKS: Record<string, string> | null;
}
