import { Link } from 'react-router';
import { splitTags, tagPath } from '../tags';
import styles from './tagged-text.module.css';

/** Text whose `#tags` are links to their tag's page (issue 31). */
export function TaggedText({ text }: { text: string }) {
  return (
    <>
      {splitTags(text).map((piece, i) =>
        'tag' in piece ? (
          <Link key={i} to={tagPath(piece.tag)} className={styles.tag}>
            {piece.text}
          </Link>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}
