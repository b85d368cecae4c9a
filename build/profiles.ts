/**
 * The build profiles the commands run (core/profile.ts): `npm run build` and `npm run deploy`
 * publish, `npm start` previews, `npm run validate` validates.
 */
import type { BuildProfile } from "./core/profile.js";
import type { BuildMemory } from "./core/memory.js";
import { PREVIEW_COMPRESSION, PUBLISHED_COMPRESSION } from "./encode/variants.js";

/** What is published: everything compressed at the published settings, with the history. */
export const PUBLISH: BuildProfile = {
  name: "publish",
  compression: PUBLISHED_COMPRESSION,
  compressPage: true,
  history: true,
  memory: undefined,
};

/**
 * The live preview's, with its session's memory: everything compressed at the fastest settings
 * (docs/decisions.md#the-preview-compresses-fast) but the landing page, not at all, and the
 * history read as a publication's.
 */
export function previewProfile(memory: BuildMemory | undefined): BuildProfile {
  return {
    name: "preview",
    compression: PREVIEW_COMPRESSION,
    compressPage: false,
    history: true,
    memory,
  };
}

/** `npm run validate`'s: steps 1 to 5 only, so nothing is compressed and no history is read. */
export const VALIDATE: BuildProfile = {
  name: "validate",
  compression: PUBLISHED_COMPRESSION,
  compressPage: true,
  history: false,
  memory: undefined,
};
