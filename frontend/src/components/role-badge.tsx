import styles from './role-badge.module.css';

/** The three role tags (spec §3 Tag). The identifiers are fixed; they are never shown. */
export const ROLE_TAGS = [
  { id: '146fb41a-2f3e-48c7-bef9-01de0279dfd7', name: 'Listener' },
  { id: 'b361c6f9-9425-4548-8c07-cb408140c304', name: 'Musician' },
  { id: '5ee121a6-b467-4ead-b3f7-00e1ce6097d5', name: 'Learner' },
] as const;

export type RoleTag = (typeof ROLE_TAGS)[number];
export type RoleName = RoleTag['name'];

export const ADD_TAG_LABEL = 'Add tag';

/** The tag an identifier names, or null for none or an unknown one. */
export function roleForTagId(tagId: string | null | undefined): RoleTag | null {
  return ROLE_TAGS.find((tag) => tag.id === tagId) ?? null;
}

interface RoleBadgeProps {
  tagId: string | null | undefined;
  /**
   * What an unknown or missing tag becomes (spec §3): 'Add tag' on profiles, Listener on post
   * authors.
   */
  fallback?: 'add-tag' | 'listener';
  className?: string;
}

/**
 * A role pill in the tag's colours: Musician purple #6D01D0, Learner dark blue #000C9C,
 * Listener white with black text; 'Add tag' is an outlined placeholder.
 */
export function RoleBadge({ tagId, fallback = 'add-tag', className }: RoleBadgeProps) {
  const tag = roleForTagId(tagId) ?? (fallback === 'listener' ? ROLE_TAGS[0] : null);
  const classes = [styles.badge, tag ? styles[tag.name.toLowerCase()] : styles.none, className]
    .filter(Boolean)
    .join(' ');
  return (
    <span className={classes} data-role={tag?.name ?? 'none'}>
      {tag?.name ?? ADD_TAG_LABEL}
    </span>
  );
}
