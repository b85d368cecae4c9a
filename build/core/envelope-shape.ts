/**
 * The shape of a data set's response body, the envelope both specs define: what assembly builds
 * (assemble/envelope.ts), the body's bytes are written from (encode/body.ts) and the steps after
 * read. Declared here, below both, since step 5 serialises with encode's modules.
 */

/** One brand object, as joined from its files. */
export type Brand = Record<string, unknown>;

/**
 * A data set's response body, `{ meta, data: [{ Brand: [...] }] }` (Open Data API v2.2 and Service
 * Metrics API v1.0 share this shape): what assembly builds and what the change summary compares.
 */
export interface Envelope {
  readonly meta: Record<string, unknown>;
  readonly data: readonly { readonly Brand: readonly Brand[] }[];
}
