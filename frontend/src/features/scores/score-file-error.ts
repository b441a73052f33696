/** A score file that could not be fetched, unpacked or read. */
export class ScoreFileError extends Error {
  override readonly name = 'ScoreFileError';
}
