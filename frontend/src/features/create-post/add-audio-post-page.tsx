import { MusicIcon } from '../../components/first-load-icons';
import { createAudioPost } from './api';
import { LabelledFilesForm, type LabelledFilesConfig } from './components/labelled-files-form';
import { AUDIO_MAX_FILES, DEFAULT_ARTIST, audioPostProblem, selectAudioFiles } from './validation';

/** Spec §4: after an audio post, '/' after 2 s. */
export const AUDIO_REDIRECT = { to: '/', delayMs: 2000 } as const;

const AUDIO_FORM: LabelledFilesConfig = {
  kind: 'audio',
  fileIcon: <MusicIcon size={22} />,
  picker: {
    label: 'Audio files',
    accept: 'audio/*',
    moreTitle: 'Add more audio files',
    title: 'Drag audio files here',
    hint: `Up to ${AUDIO_MAX_FILES} files, 50MB each`,
  },
  maxFiles: AUDIO_MAX_FILES,
  creditLabel: 'Artist',
  creditDefault: DEFAULT_ARTIST,
  suggestionHint:
    "Leave a suggested title or artist as it is and the file's own tags are used when it has them.",
  select: selectAudioFiles,
  problem: (files) => audioPostProblem(files.map((f) => ({ title: f.title, artist: f.credit }))),
  withGenre: true,
  send: (files, caption, options, genre) =>
    createAudioPost(
      files.map((f) => ({ file: f.file, title: f.title, artist: f.credit })),
      caption,
      options,
      genre,
    ),
  redirectTo: AUDIO_REDIRECT.to,
  redirectDelayMs: AUDIO_REDIRECT.delayMs,
};

/** /add-post-audio (spec §2, §5 Audio post). */
export function AddAudioPostPage() {
  return <LabelledFilesForm config={AUDIO_FORM} />;
}
