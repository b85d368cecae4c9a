/**
 * The live preview's page at an address no site names, with site.yaml's Sites (preview.ts only,
 * never deployed): each site by its Name, linked at http://<Name>.localhost:<port>/, which
 * browsers and curl resolve to loopback (RFC 6761 section 6.3).
 */
import { baseHeaders } from "./http/headers.js";

// Names are DNS labels (schemas/site.schema.json): nothing in them needs escaping in HTML.
export function sitesPage(names: readonly string[], port: string): Response {
  const at = port ? `:${port}` : "";
  const items = names
    .map((name) => `<li><a href="http://${name}.localhost${at}/">${name}</a></li>`)
    .join("\n");
  const html = `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Sites</title></head>\n<body>\n<h1>Sites</h1>\n<ul>\n${items}\n</ul>\n</body>\n</html>\n`;
  const headers = baseHeaders();
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, { status: 200, headers });
}
