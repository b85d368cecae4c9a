/**
 * Every kind of entry the build cache holds (core/cache.ts; an entry is the file `<key>.<kind>`),
 * named in one place with the step and the module that own it: only that module makes, reads or
 * keeps entries of its kind, so what a step reuses from an earlier build can be found here.
 */
export const CACHE_KINDS = {
  /** What the cache's entries were made with, for the next build's miss reason (core/cache.ts). */
  fingerprint: "json",
  /** 1 read: which files hold which text, by size and time (read/texts.ts), under a fixed key. */
  contentTexts: "json",
  /** 2 check each file: a valid file's check result and value (check/cached-checks.ts). */
  check: "check",
  /**
   * 5 assemble: a data set's body, what is known of it (counts, marks, brands, ETag) and its
   * exact bytes, framed (assemble/one-dataset.ts).
   */
  dataset: "dataset",
  /** 6 encode: bytes' brotli and gzip variants, framed, by their ETag and the settings (encode/cached-encoder.ts). */
  compressed: "compressed",
  /** 7 near: a data set's index without the postcode table, by its body's ETag (near/index.ts). */
  nearIndex: "near",
  /** 7 near: the postcode points of a data set's records (near/index.ts). */
  nearOwn: "near-own",
  /** 8 history, asked by 5: when a merge commit dated a data set (history/data-versions.ts). */
  historyDating: "history-dating",
  /** 8 history, asked by 5: a commit's Data digest for one data set (history/data-versions.ts). */
  historyData: "history-data",
  /** 8 history, asked by 5: a data set's newest versions, by its newest commit (history/data-versions.ts). */
  historyDataVersions: "history-data-versions",
  /**
   * 8 history: a data set's answers and publications, and the answers' bytes, every coding, in
   * order, framed (history/dataset.ts).
   */
  historyAnswers: "history-answers",
  /**
   * 8 history: a past version's body ETags in each coding, by its content's hashes, its date, the
   * code that writes it (history/facts.ts, pastForm) and the compression (history/dataset.ts).
   */
  historyVersion: "history-version",
  /** 8 history: a git tree's files under a data set's folder (history/store.ts). */
  historyTree: "history-tree",
  /**
   * 8 history: what is kept of a git blob, a brand file's records' facts or site.yaml's settings,
   * by the blob's hash and the code that reads it (history/store.ts, history/facts.ts, pastForm).
   */
  historyFacts: "history-facts",
  /** 9 documents: the landing page's map section, by what it is drawn from (documents/index.ts). */
  mapSection: "html",
  /** 9 documents: the map's projected outline (documents/landing/map.ts). */
  mapOutline: "outline",
} as const;
