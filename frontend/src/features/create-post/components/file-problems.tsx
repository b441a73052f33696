import { Alert } from '../../../components/alert';
import styles from './composer-form.module.css';

/** Why some picked files were not added (one message per rule, each naming its file). */
export function FileProblems({ problems, onDismiss }: { problems: readonly string[]; onDismiss: () => void }) {
  if (problems.length === 0) return null;
  return (
    <Alert tone="error" onDismiss={onDismiss} title={problems.length > 1 ? 'Some files were not added' : undefined}>
      {problems.length === 1 ? (
        problems[0]
      ) : (
        <ul className={styles.problemList}>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
