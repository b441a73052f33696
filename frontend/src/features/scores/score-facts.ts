/**
 * What a score file says of itself, for the add-post form (issue 34): its title
 * (`work/work-title`, else `movement-title`) and composer
 * (`identification/creator[@type="composer"]`), read as the server reads them, and kept only
 * when they read as text (as `posts::input::score_label` does: mostly letters and digits, no
 * U+FFFD and none of \ | ^ ~ { } `), without a file extension. So what the form suggests is
 * what the server would publish.
 */
import { decodeXml, isZip } from './score-file';
import { scoreInArchive } from './unzip';

export interface ScoreFacts {
  title: string | null;
  composer: string | null;
}

/** Longest title or composer kept, as the server's reader. */
const MOST_CHARS = 300;

/** Whether text read from a file reads as text (the server's `plausible`). */
export function plausible(text: string): boolean {
  let words = 0;
  let all = 0;
  for (const c of text.replace(/\s/g, '')) {
    if (/[\uFFFD\\|^~{}`]/.test(c)) return false;
    all += 1;
    if (/[\p{L}\p{N}]/u.test(c)) words += 1;
  }
  return words > 0 && words * 2 >= all;
}

/** Text gathered from an element as the server's reader gathers it: whitespace collapsed, bounded. */
function collapse(raw: string | null | undefined): string {
  return (raw ?? '').replace(/\p{Cc}/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, MOST_CHARS).trim();
}

/** A label read from a file as the server keeps it: no score extension, and only if plausible. */
function label(text: string): string | null {
  const bare = text.replace(/\.(mxl|musicxml|xml)$/i, '').trim();
  return bare && plausible(bare) ? bare : null;
}

/** The title and composer `file` names, each null when it has none that reads as text. */
export async function readScoreFacts(file: Blob): Promise<ScoreFacts> {
  try {
    let bytes: Uint8Array = new Uint8Array(await file.arrayBuffer());
    if (isZip(bytes)) bytes = await scoreInArchive(bytes);
    const doc = new DOMParser().parseFromString(decodeXml(bytes), 'application/xml');
    const root = doc.documentElement;
    const child = (parent: Element | null | undefined, name: string) =>
      parent ? Array.from(parent.children).find((e) => e.localName === name) : undefined;
    const composer = Array.from(child(root, 'identification')?.children ?? []).find(
      (e) => e.localName === 'creator' && e.getAttribute('type') === 'composer',
    );
    // The work's title when it has one, else the movement's (then judged, as the server does).
    const work = collapse(child(child(root, 'work'), 'work-title')?.textContent);
    return {
      title: label(work || collapse(child(root, 'movement-title')?.textContent)),
      composer: label(collapse(composer?.textContent)),
    };
  } catch {
    return { title: null, composer: null };
  }
}
