import { ScoreIcon } from '../../components/first-load-icons';
import { readScoreFacts } from '../scores';
import { createMusicXmlPost } from './api';
import { LabelledFilesForm, type LabelledFilesConfig } from './components/labelled-files-form';
import { DEFAULT_COMPOSER, SCORE_MAX_FILES, scorePostProblem, scoreTitleFromFileName, selectScoreFiles } from './validation';

/** Spec §4: after a MusicXML post, home after 1.5 s. */
export const MUSICXML_REDIRECT = { to: '/home', delayMs: 1500 } as const;

const MUSICXML_FORM: LabelledFilesConfig = {
  kind: 'musicxml',
  fileIcon: <ScoreIcon size={22} />,
  picker: {
    label: 'MusicXML files',
    accept:
      '.musicxml,.xml,.mxl,application/vnd.recordare.musicxml+xml,application/vnd.recordare.musicxml,application/xml,text/xml',
    moreTitle: 'Add more MusicXML files',
    title: 'Drag MusicXML files here',
    hint: `.musicxml, .xml or .mxl; up to ${SCORE_MAX_FILES} files, 10MB each`,
  },
  maxFiles: SCORE_MAX_FILES,
  creditLabel: 'Composer',
  creditDefault: DEFAULT_COMPOSER,
  suggestTitle: scoreTitleFromFileName,
  suggestionHint: "The title and composer are the score's own when it names them; what you see is what is published.",
  readFile: (file) => readScoreFacts(file).then((facts) => ({ title: facts.title, credit: facts.composer })),
  select: selectScoreFiles,
  problem: (files) => scorePostProblem(files.map((f) => ({ title: f.title, composer: f.credit }))),
  send: (files, caption, options) =>
    createMusicXmlPost(
      files.map((f) => ({ file: f.file, title: f.title, composer: f.credit })),
      caption,
      options,
    ),
  redirectTo: MUSICXML_REDIRECT.to,
  redirectDelayMs: MUSICXML_REDIRECT.delayMs,
};

/** /add-post-musicxml (spec §2, §5 MusicXML post). */
export function AddMusicXmlPostPage() {
  return <LabelledFilesForm config={MUSICXML_FORM} />;
}
