import type { LyricsContent, LyricsPartJson } from '../types';
import styles from './lyrics-parts.module.css';

export interface LyricsSection {
  label: string;
  text: string;
}

function partLabel(type: string): string {
  const clean = type.trim();
  return clean.charAt(0).toUpperCase() + clean.slice(1);
}

/**
 * The parts of a song to show: the parts as written, or, when only the joined text came, that
 * text cut at its `[Verse]`-style heading lines. A verse that comes back is numbered (Verse 1,
 * Verse 2); a chorus sung again keeps its plain name.
 */
export function lyricsSections(lyrics: Pick<LyricsContent, 'parts' | 'lyricsText'>): LyricsSection[] {
  let sections: LyricsSection[] = lyrics.parts.map((p: LyricsPartJson) => ({ label: p.type, text: p.lyrics }));
  if (sections.length === 0) {
    // [text before any heading, heading, its text, heading, its text, …]
    const pieces = lyrics.lyricsText.split(/^[ \t]*\[([^\]\n]{1,40})\][ \t]*\r?$/m);
    sections = [{ label: '', text: pieces[0] ?? '' }];
    for (let i = 1; i < pieces.length; i += 2) sections.push({ label: pieces[i] ?? '', text: pieces[i + 1] ?? '' });
  }
  sections = sections
    .map((s) => ({ label: partLabel(s.label), text: s.text.trim() }))
    .filter((s) => s.text !== '');
  const verses = sections.filter((s) => s.label === 'Verse').length;
  let verse = 0;
  return sections.map((s) => (s.label === 'Verse' && verses > 1 ? { ...s, label: `Verse ${++verse}` } : s));
}

/**
 * A song's parts, each under its label, the labels headings on the post page (`headings`). A
 * card shows its first lines only: its `className` cuts the rest.
 */
export function LyricsParts({
  sections,
  headings = false,
  className,
}: {
  sections: readonly LyricsSection[];
  headings?: boolean;
  className?: string;
}) {
  const Label = headings ? 'h3' : 'span';
  return (
    <div className={`${styles.parts} ${className ?? ''}`}>
      {sections.map((section, index) => (
        // A group, not a region: a song's parts repeat (a chorus twice), and landmarks must
        // each have a name of their own; the part's label is how it is found.
        <div key={index} role="group" aria-label={section.label || undefined}>
          {section.label ? <Label className={styles.label}>{section.label}</Label> : null}
          <p className={styles.text}>{section.text}</p>
        </div>
      ))}
    </div>
  );
}
