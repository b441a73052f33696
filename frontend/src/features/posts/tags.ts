/**
 * Tags as the server reads them (issue 31; crates/posts/src/tags.rs): `#` at the start or after
 * anything but a letter, digit or `_`, then letters, digits and `_`, at least one a letter, at
 * most 50 characters; found whatever their case and accents (`#Café` is the tag `cafe`).
 */

/** Most characters of one tag. */
export const LONGEST_TAG = 50;

const WORD = /[\p{L}\p{N}_]/u;
const TAG = /#([\p{L}\p{N}_]+)/gu;

/** A tag as the server files it: decomposed, without combining marks, lower case; null if none. */
export function normalizeTag(raw: string): string | null {
  const tag = raw.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  if (tag === '' || [...tag].length > LONGEST_TAG || !/^[\p{L}\p{N}_]+$/u.test(tag) || !/\p{L}/u.test(tag)) return null;
  return tag;
}

/** A piece of text: plain, or a tag as written with the tag it files under. */
export type TextPiece = { text: string } | { text: string; tag: string };

/** `text` cut into plain pieces and the tags it names, in order. */
export function splitTags(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let from = 0;
  for (const match of text.matchAll(TAG)) {
    const at = match.index;
    const before = at > 0 ? text[at - 1] : undefined;
    const tag = normalizeTag(match[1] ?? '');
    if ((before !== undefined && WORD.test(before)) || tag === null) continue;
    if (at > from) pieces.push({ text: text.slice(from, at) });
    pieces.push({ text: match[0], tag });
    from = at + match[0].length;
  }
  if (from < text.length) pieces.push({ text: text.slice(from) });
  return pieces;
}

export function tagPath(tag: string): string {
  return `/tag/${encodeURIComponent(tag)}`;
}
