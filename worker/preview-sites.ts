/**
 * The live preview's page at an address no site names, with site.yaml's Sites (preview.ts only,
 * never deployed): each site by its Name, linked at http://<Name>.localhost:<port>/, which
 * browsers and curl resolve to loopback (RFC 6761 section 6.3), with the host it answers when
 * deployed and how to ask the preview as that host.
 */
import { baseHeaders } from "./http/headers.js";

/** A site as the page lists it. */
export interface ListedSite {
  readonly name: string;
  readonly host: string;
}

// Its own few rules: the page is the preview's, served without the landing page's stylesheet.
const STYLE = [
  "body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;padding:1.5rem 1rem;max-width:60rem;color:#1b1f24}",
  "table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #d0d7de;vertical-align:top}",
  "code{font-size:.85rem;overflow-wrap:anywhere}a{color:#0a4ea3}",
  "@media (max-width:40rem){thead{display:none}tr,td{display:block}td{border:0;padding:.15rem 0}tr{border-bottom:1px solid #d0d7de;padding:.6rem 0}}",
].join("");

// Names are DNS labels and hosts lower-case DNS names (schemas/site.schema.json): nothing in
// them needs escaping in HTML.
export function sitesPage(sites: readonly ListedSite[], port: string): Response {
  const at = port ? `:${port}` : "";
  const rows = sites
    .map(
      ({ name, host }) =>
        `<tr><td><a href="http://${name}.localhost${at}/">${name}</a></td><td>${host}</td>` +
        `<td><code>curl -H 'Host: ${host}' http://127.0.0.1${at}/std/v2.2/branches</code></td></tr>`,
    )
    .join("\n");
  const html = [
    '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Sites: the live preview</title><style>${STYLE}</style></head>\n<body>`,
    "<h1>Sites</h1>",
    `<p>site.yaml names ${sites.length} sites. Each has its own preview at its name under localhost; ask as its host with a Host header.</p>`,
    "<table><thead><tr><th>Site (its preview)</th><th>Host when deployed</th><th>Ask the preview as that host</th></tr></thead>",
    `<tbody>\n${rows}\n</tbody></table>\n</body>\n</html>\n`,
  ].join("\n");
  const headers = baseHeaders();
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, { status: 200, headers });
}
