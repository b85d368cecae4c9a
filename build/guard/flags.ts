/**
 * The publication guard's command-line flags and environment variables, named once: the build
 * and diff CLIs parse them, the guard's messages name them, and the workflows' tests look for
 * them. Names only, so any module may import them (docs/operations.md#the-publication-guard).
 */

/** Says the build is about to be published: a shrink is refused, not warned (`--publish`). */
export const PUBLISH_FLAG = "publish";
/** Publishes despite a shrink (`--allow-shrink`). */
export const ALLOW_SHRINK_FLAG = "allow-shrink";
/** Does the same as `--allow-shrink` (`OPENDATA_ALLOW_SHRINK=1`). */
export const ALLOW_SHRINK_ENV = "OPENDATA_ALLOW_SHRINK";
/** The largest share of records a data set may lose (`--max-shrink 0.2`). */
export const MAX_SHRINK_FLAG = "max-shrink";
/** Names a manifest.json to compare with (`--baseline <file>`). */
export const BASELINE_FLAG = "baseline";
/** Names a git revision whose content is built and compared with (`--baseline-ref <rev>`). */
export const BASELINE_REF_FLAG = "baseline-ref";
/** Names the deployment whose live data sets are compared with (`--baseline-url <url>`). */
export const BASELINE_URL_FLAG = "baseline-url";
/** The deployment's URL, the baseline of a publication when set. */
export const DEPLOYMENT_URL_ENV = "OPENDATA_DEPLOYMENT_URL";
