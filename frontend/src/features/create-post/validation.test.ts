// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  scoreTitleFromFileName,
  AUDIO_MAX_BYTES,
  IMAGE_MAX_BYTES,
  MB,
  MEDIA_MAX_TOTAL_BYTES,
  SCORE_MAX_BYTES,
  VIDEO_MAX_BYTES,
  audioFileProblem,
  audioPostProblem,
  fileExtension,
  fileStem,
  formatFileSize,
  isMusicXmlFile,
  lyricsGaps,
  lyricsPostProblem,
  mediaFileProblem,
  mediaKind,
  mediaPostProblem,
  moveItem,
  scoreFileProblem,
  scorePostProblem,
  selectAudioFiles,
  selectMediaFiles,
  selectScoreFiles,
  valueToSend,
  type FileFacts,
} from './validation';

const file = (name: string, type: string, size = 1000): FileFacts => ({ name, type, size });
const many = <T,>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

describe('shared helpers', () => {
  it('takes the extension off a file name for the default title', () => {
    expect(fileStem('Morning Song.mp3')).toBe('Morning Song');
    expect(fileStem('take.2.final.wav')).toBe('take.2.final');
    expect(fileStem('no-extension')).toBe('no-extension');
    expect(fileStem('.hidden')).toBe('.hidden');
  });

  it("makes a score's file name a readable title, as the server does", () => {
    expect(scoreTitleFromFileName('joplin_maple_leaf_rag.mxl')).toBe('Joplin maple leaf rag');
    expect(scoreTitleFromFileName('bach_bwv110.7.musicxml')).toBe('Bach bwv110.7');
    expect(scoreTitleFromFileName('Maple Leaf Rag.xml')).toBe('Maple Leaf Rag');
    expect(scoreTitleFromFileName('__.xml')).toBe('Untitled');
  });

  it('reads the extension in lower case', () => {
    expect(fileExtension('Score.MXL')).toBe('mxl');
    expect(fileExtension('clip.tar.webm')).toBe('webm');
    expect(fileExtension('README')).toBe('');
    expect(fileExtension('.xml')).toBe('');
  });

  it('formats sizes as people read them', () => {
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(2048)).toBe('2 KB');
    expect(formatFileSize(3.45 * MB)).toBe('3.5 MB');
    expect(formatFileSize(200 * MB)).toBe('200 MB');
  });

  it('sends a field still at its prefilled default as empty, so the server reads the file', () => {
    expect(valueToSend('Morning Song', 'Morning Song')).toBe('');
    expect(valueToSend('  Unknown Artist ', 'Unknown Artist')).toBe('');
    expect(valueToSend('Ada Lovelace ', 'Unknown Artist')).toBe('Ada Lovelace');
    expect(valueToSend('Morning Song (live)', 'Morning Song')).toBe('Morning Song (live)');
  });
});

describe('audio post (spec §5)', () => {
  it('takes only audio/ types', () => {
    expect(audioFileProblem(file('a.mp3', 'audio/mpeg'))).toBeNull();
    expect(audioFileProblem(file('a.flac', 'audio/flac'))).toBeNull();
    expect(audioFileProblem(file('notes.txt', 'text/plain'))).toBe('notes.txt is not an audio file');
    expect(audioFileProblem(file('clip.mp4', 'video/mp4'))).toBe('clip.mp4 is not an audio file');
    expect(audioFileProblem(file('unknown', ''))).toBe('unknown is not an audio file');
  });

  it('takes files up to 50MB', () => {
    expect(audioFileProblem(file('big.wav', 'audio/wav', AUDIO_MAX_BYTES))).toBeNull();
    expect(audioFileProblem(file('huge.wav', 'audio/wav', AUDIO_MAX_BYTES + 1))).toBe('huge.wav exceeds 50MB limit');
  });

  it('adds what passes and names what does not', () => {
    const picked = [
      file('one.mp3', 'audio/mpeg'),
      file('cover.png', 'image/png'),
      file('huge.wav', 'audio/wav', AUDIO_MAX_BYTES + 1),
      file('two.ogg', 'audio/ogg'),
    ];
    const { accepted, problems } = selectAudioFiles(0, picked);
    expect(accepted.map((f) => f.name)).toEqual(['one.mp3', 'two.ogg']);
    expect(problems).toEqual(['cover.png is not an audio file', 'huge.wav exceeds 50MB limit']);
  });

  it('holds at most 10 files', () => {
    const picked = many(4, (i) => file(`t${i}.mp3`, 'audio/mpeg'));
    const { accepted, problems } = selectAudioFiles(8, picked);
    expect(accepted.map((f) => f.name)).toEqual(['t0.mp3', 't1.mp3']);
    expect(problems).toEqual(['Maximum 10 audio files allowed per post']);
  });

  it('needs a file, and a title and an artist for each', () => {
    expect(audioPostProblem([])).toBe('Please select at least one audio file');
    expect(audioPostProblem([{ title: 'Song', artist: 'Unknown Artist' }])).toBeNull();
    expect(audioPostProblem([{ title: 'Song', artist: 'A' }, { title: '  ', artist: 'A' }])).toBe(
      'Please fill in title and artist for all audio files',
    );
    expect(audioPostProblem([{ title: 'Song', artist: '' }])).toBe(
      'Please fill in title and artist for all audio files',
    );
  });
});

describe('MusicXML post (spec §5)', () => {
  it('knows a MusicXML file by its extension or an XML type', () => {
    expect(isMusicXmlFile(file('fugue.musicxml', ''))).toBe(true);
    expect(isMusicXmlFile(file('fugue.XML', ''))).toBe(true);
    expect(isMusicXmlFile(file('fugue.mxl', 'application/octet-stream'))).toBe(true);
    expect(isMusicXmlFile(file('fugue', 'application/vnd.recordare.musicxml+xml'))).toBe(true);
    expect(isMusicXmlFile(file('fugue', 'application/vnd.recordare.musicxml'))).toBe(true);
    expect(isMusicXmlFile(file('fugue', 'text/xml'))).toBe(true);
    expect(isMusicXmlFile(file('fugue', 'application/xml; charset=utf-8'))).toBe(true);
    expect(isMusicXmlFile(file('fugue.pdf', 'application/pdf'))).toBe(false);
    expect(isMusicXmlFile(file('fugue.mid', 'audio/midi'))).toBe(false);
  });

  it('words the type and size problems with the file name', () => {
    expect(scoreFileProblem(file('song.pdf', 'application/pdf'))).toBe('song.pdf is not a valid MusicXML file');
    expect(scoreFileProblem(file('big.xml', 'text/xml', SCORE_MAX_BYTES))).toBeNull();
    expect(scoreFileProblem(file('big.xml', 'text/xml', SCORE_MAX_BYTES + 1))).toBe('big.xml exceeds 10MB limit');
  });

  it('holds at most 5 files', () => {
    const { accepted, problems } = selectScoreFiles(3, [
      file('a.xml', ''),
      file('b.pdf', 'application/pdf'),
      file('c.mxl', ''),
      file('d.musicxml', ''),
    ]);
    expect(accepted.map((f) => f.name)).toEqual(['a.xml', 'c.mxl']);
    expect(problems).toEqual(['b.pdf is not a valid MusicXML file', 'Maximum 5 MusicXML files allowed per post']);
  });

  it('needs a file, and a title and a composer for each', () => {
    expect(scorePostProblem([])).toBe('Please select at least one MusicXML file');
    expect(scorePostProblem([{ title: 'Fugue', composer: 'Unknown Composer' }])).toBeNull();
    expect(scorePostProblem([{ title: 'Fugue', composer: ' ' }])).toBe(
      'Please fill in title and composer for all MusicXML files',
    );
    expect(scorePostProblem([{ title: '', composer: 'Bach' }])).toBe(
      'Please fill in title and composer for all MusicXML files',
    );
  });
});

describe('media post (spec §5)', () => {
  it('takes jpeg, jpg, png, gif, webp, mp4, mov, avi, mkv and webm', () => {
    for (const name of ['a.jpeg', 'a.jpg', 'a.png', 'a.gif', 'a.webp']) expect(mediaKind(file(name, ''))).toBe('image');
    for (const name of ['a.mp4', 'a.mov', 'a.avi', 'a.mkv', 'a.webm']) expect(mediaKind(file(name, ''))).toBe('video');
    expect(mediaKind(file('photo', 'image/jpeg'))).toBe('image');
    expect(mediaKind(file('clip', 'video/quicktime'))).toBe('video');
    expect(mediaKind(file('PHOTO.JPG', ''))).toBe('image');
    expect(mediaKind(file('photo.heic', 'image/heic'))).toBeNull();
    expect(mediaKind(file('drawing.svg', 'image/svg+xml'))).toBeNull();
  });

  it('says an unsupported type begins with "Unsupported file type"', () => {
    const problem = mediaFileProblem(file('doc.pdf', 'application/pdf'));
    expect(problem).toMatch(/^Unsupported file type/);
    expect(problem).toContain('doc.pdf');
  });

  it('takes images up to 10MB and videos up to 100MB', () => {
    expect(mediaFileProblem(file('a.png', 'image/png', IMAGE_MAX_BYTES))).toBeNull();
    expect(mediaFileProblem(file('a.png', 'image/png', IMAGE_MAX_BYTES + 1))).toBe('File size exceeds 10MB limit');
    expect(mediaFileProblem(file('a.mp4', 'video/mp4', VIDEO_MAX_BYTES))).toBeNull();
    expect(mediaFileProblem(file('a.mp4', 'video/mp4', VIDEO_MAX_BYTES + 1))).toBe('File size exceeds 100MB limit');
  });

  it('skips duplicates (same name and size) without a word', () => {
    const current = [file('a.png', 'image/png', 10)];
    const { accepted, problems } = selectMediaFiles(current, [
      file('a.png', 'image/png', 10),
      file('a.png', 'image/png', 11),
      file('b.png', 'image/png', 10),
      file('b.png', 'image/png', 10),
    ]);
    expect(accepted.map((f) => `${f.name}:${f.size}`)).toEqual(['a.png:11', 'b.png:10']);
    expect(problems).toEqual([]);
  });

  it('holds at most 5 files', () => {
    const current = many(3, (i) => file(`c${i}.jpg`, 'image/jpeg'));
    const { accepted, problems } = selectMediaFiles(
      current,
      many(4, (i) => file(`n${i}.jpg`, 'image/jpeg')),
    );
    expect(accepted.map((f) => f.name)).toEqual(['n0.jpg', 'n1.jpg']);
    expect(problems).toEqual(['Maximum 5 files allowed per post']);
  });

  it('holds at most 200MB in all', () => {
    const current = [file('a.mp4', 'video/mp4', 90 * MB), file('b.mp4', 'video/mp4', 90 * MB)];
    const { accepted, problems } = selectMediaFiles(current, [
      file('c.mp4', 'video/mp4', 30 * MB),
      file('d.jpg', 'image/jpeg', 5 * MB),
    ]);
    expect(accepted.map((f) => f.name)).toEqual(['d.jpg']);
    expect(problems).toEqual(['Total file size exceeds 200MB limit']);
  });

  it('names the file whose size is over its limit', () => {
    const { accepted, problems } = selectMediaFiles([], [
      file('poster.png', 'image/png', IMAGE_MAX_BYTES + 1),
      file('clip.webm', 'video/webm', 20 * MB),
      file('notes.txt', 'text/plain'),
    ]);
    expect(accepted.map((f) => f.name)).toEqual(['clip.webm']);
    expect(problems[0]).toBe('poster.png: File size exceeds 10MB limit');
    expect(problems[1]).toMatch(/^Unsupported file type: notes\.txt/);
  });

  it('needs at least one file and keeps every rule at sending', () => {
    expect(mediaPostProblem([])).toBe('Please select at least one file');
    expect(mediaPostProblem([file('a.png', 'image/png')])).toBeNull();
    expect(mediaPostProblem(many(6, (i) => file(`${i}.png`, 'image/png')))).toBe('Maximum 5 files allowed per post');
    expect(
      mediaPostProblem(many(3, (i) => file(`${i}.mp4`, 'video/mp4', 70 * MB))),
    ).toBe('Total file size exceeds 200MB limit');
    expect(MEDIA_MAX_TOTAL_BYTES).toBe(200 * MB);
  });
});

describe('lyrics post (spec §3, §5)', () => {
  const part = (type: string, lyrics: string) => ({ type, lyrics });
  const song = { songTitle: 'Yesterday', artistName: 'The Beatles', parts: [part('verse', 'All my troubles')] };

  it('accepts a title, an artist and typed parts with words', () => {
    expect(lyricsPostProblem(song)).toBeNull();
    for (const type of ['intro', 'verse', 'pre-chorus', 'chorus', 'bridge', 'outro']) {
      expect(lyricsPostProblem({ ...song, parts: [part(type, 'la la')] })).toBeNull();
    }
  });

  it('asks for every required field with one message', () => {
    const missing = 'Please fill in all required fields';
    expect(lyricsPostProblem({ ...song, songTitle: ' ' })).toBe(missing);
    expect(lyricsPostProblem({ ...song, artistName: '' })).toBe(missing);
    expect(lyricsPostProblem({ ...song, parts: [] })).toBe(missing);
    expect(lyricsPostProblem({ ...song, parts: [part('', 'words')] })).toBe(missing);
    expect(lyricsPostProblem({ ...song, parts: [part('solo', 'words')] })).toBe(missing);
    expect(lyricsPostProblem({ ...song, parts: [part('verse', 'words'), part('chorus', ' \n ')] })).toBe(missing);
  });

  it('holds at most 10 parts', () => {
    expect(lyricsPostProblem({ ...song, parts: many(10, () => part('verse', 'x')) })).toBeNull();
    expect(lyricsPostProblem({ ...song, parts: many(11, () => part('verse', 'x')) })).toBe(
      'A song can have at most 10 parts',
    );
  });

  it('tells which fields are missing', () => {
    expect(
      lyricsGaps({ songTitle: '', artistName: 'A', parts: [part('verse', ''), part('', 'words')] }),
    ).toEqual({
      songTitle: true,
      artistName: false,
      parts: [
        { type: false, lyrics: true },
        { type: true, lyrics: false },
      ],
    });
  });

  it('moves parts up and down', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 5)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 7, 0)).toEqual(['a', 'b', 'c']);
  });
});
