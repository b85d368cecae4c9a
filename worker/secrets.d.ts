// Secrets are not in wrangler.toml, so `wrangler types` cannot know them (it reads only a local
// .dev.vars, which is never committed). They are declared here instead, optional, since a local
// run may have none. Set with `wrangler secret put <NAME>` (docs/operations.md#what-is-stored).
declare namespace Cloudflare {
  interface Env {
    /** The per-deployment HMAC key that turns client buckets into counter keys (counter-key.ts). */
    RATE_LIMIT_KEY?: string;
  }
}
