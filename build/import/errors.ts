/**
 * The one error type of `npm run import`: something about the input, the content folder or the
 * options that stops the import before anything is written. Its message names the input.
 */
export class ImportError extends Error {
  override readonly name = "ImportError";
}
