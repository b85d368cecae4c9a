/**
 * The API reference at /reference: static HTML written at build time from /openapi.json, for a
 * browser (docs/decisions.md, "The API reference is generated, not rendered by a package"). Every
 * path and operation of the document with its parameters, header fields, statuses and error
 * bodies; for each operation a request in curl, JavaScript and Python (samples.ts) and the answer
 * it gets, cut from what this build publishes (examples.ts). Like the landing page it has no
 * script, no inline style and no request to another origin: its only other request is /style.css.
 */
import { escapeAttribute as attr, escapeHtml as text } from "../landing/html.js";
import { shellExample } from "../landing/origin.js";
import { pageHead } from "../landing/page.js";
import { compactJson, type Example } from "./examples.js";
import { SAMPLE_LANGUAGES, samples } from "./samples.js";
import type { JsonObject } from "../../core/json-value.js";

export interface ReferenceInput {
  /** /openapi.json as the build makes it. */
  readonly openapi: JsonObject;
  /** Each path's example request and answer (examples.ts). */
  readonly examples: ReadonlyMap<string, Example>;
  /** site.yaml's PublicOrigin: the samples write it out; without it they read ORIGIN. */
  readonly origin: string | undefined;
  /** Where the document itself is served, for the links to it. */
  readonly openapiPath: string;
}

const METHODS = ["get", "head"] as const;

/** An operation of the document: its method, path and object. */
interface Operation {
  readonly method: (typeof METHODS)[number];
  readonly path: string;
  readonly op: JsonObject;
}

const asJson = (value: unknown): JsonObject =>
  value !== null && typeof value === "object" ? (value as JsonObject) : {};
const asString = (value: unknown): string => (typeof value === "string" ? value : "");
/** A value from the document as words: a text as it is, anything else as JSON. */
const scalar = (value: unknown): string =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? "");

/** Every operation of the document, in the order of its paths, GET before HEAD. */
function operationsOf(openapi: JsonObject): Operation[] {
  return Object.entries(asJson(openapi.paths)).flatMap(([path, item]) =>
    METHODS.filter((m) => asJson(item)[m] !== undefined).map((method) => ({
      method,
      path,
      op: asJson(asJson(item)[method]),
    })),
  );
}

/** The object a local `$ref` points at, or the value itself. */
function resolve(openapi: JsonObject, value: unknown): JsonObject {
  const ref = asString(asJson(value).$ref);
  if (!ref.startsWith("#/")) return asJson(value);
  return ref
    .slice(2)
    .split("/")
    .reduce<JsonObject>(
      (at, key) => asJson(at[key.replace(/~1/g, "/").replace(/~0/g, "~")]),
      openapi,
    );
}

/** The last part of a `$ref`: the component's name. */
const refName = (value: unknown) => asString(asJson(value).$ref).split("/").at(-1) ?? "";

/**
 * The little Markdown the document's descriptions use (CommonMark's subset): paragraphs, lists
 * of "- " lines, `code` and **strong**; everything else is text.
 */
function markdown(source: string): string {
  const inline = (s: string) =>
    text(s)
      .replace(/`([^`]+)`/g, "<code>$1</code>")
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
  return source
    .split(/\n\s*\n/)
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      if (lines.every((l) => l.startsWith("- "))) {
        return `<ul>${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join("")}</ul>`;
      }
      return `<p>${inline(lines.join(" "))}</p>`;
    })
    .join("\n");
}

// Marks a pattern or a value as code in schemaWords' text, for schemaHtml (never in a schema's own text).
const CODE = "\u0000";

/** schemaWords' text as HTML, patterns and values as code. */
const schemaHtml = (schema: JsonObject) =>
  text(schemaWords(schema))
    .split(CODE)
    .map((part, i) => (i % 2 === 1 ? `<code>${part}</code>` : part))
    .join("");

/** A schema in a few words: its type and what limits it. */
function schemaWords(schema: JsonObject): string {
  const words: string[] = [];
  if (schema.$ref !== undefined) words.push(refName(schema));
  if (typeof schema.type === "string") words.push(schema.type);
  if (Array.isArray(schema.enum))
    words.push(`one of ${schema.enum.map((v) => CODE + scalar(v) + CODE).join(", ")}`);
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    words.push(`${scalar(schema.minimum)} to ${scalar(schema.maximum)}`);
  }
  if (typeof schema.pattern === "string") words.push(`matching ${CODE}${schema.pattern}${CODE}`);
  if (schema.default !== undefined) words.push(`default ${scalar(schema.default)}`);
  return words.join(", ");
}

/** A slug for an id: letters, digits and hyphens. */
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

const opId = (o: Operation) => asString(o.op.operationId) || slug(`${o.method} ${o.path}`);

/** The whole page. */
export function referencePage(input: ReferenceInput): string {
  const { openapi } = input;
  const info = asJson(openapi.info);
  const operations = operationsOf(openapi);
  const tags = (Array.isArray(openapi.tags) ? openapi.tags : []).map(asJson);
  const ofTag = (name: string) => operations.filter((o) => asJson(o.op.tags)[0] === name);
  const title = asString(info.title);
  return [
    ...pageHead(`API reference: ${title}`),
    "</head>",
    '<body class="reference">',
    '<a class="skip" href="#main">Skip to the operations</a>',
    "<header>",
    `<p class="crumbs"><a href="/">${text(title)}</a></p>`,
    "<h1>API reference</h1>",
    `<p class="lead">Every path and operation of <a href="${attr(input.openapiPath)}"><code>${text(input.openapiPath)}</code></a> (OpenAPI ${text(asString(openapi.openapi))}; ${text(asString(info.version))}), with a request in curl, JavaScript and Python for each, and the answer this deployment gives it now.</p>`,
    "</header>",
    contents(tags, ofTag),
    '<main id="main">',
    overview(input),
    ...tags.map((tag) => tagSection(input, tag, ofTag(asString(tag.name)))),
    headersSection(openapi),
    errorsSection(openapi),
    "</main>",
    "<footer>",
    `<p>Made from <a href="${attr(input.openapiPath)}"><code>${text(input.openapiPath)}</code></a> when the data was published. The answers shown are cut: a list shows its first item, then ${text("…")}; a long text ends with ${text("…")}.</p>`,
    "</footer>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function contents(tags: readonly JsonObject[], ofTag: (name: string) => Operation[]): string {
  const groups = tags.map((tag) => {
    const name = asString(tag.name);
    const links = ofTag(name).map(
      (o) =>
        `<li><a href="#${attr(opId(o))}"><span class="method">${o.method.toUpperCase()}</span> <code>${text(o.path)}</code></a></li>`,
    );
    return `<li><a href="#tag-${attr(slug(name))}">${text(name)}</a><ol>${links.join("")}</ol></li>`;
  });
  return [
    '<nav class="contents" aria-labelledby="contents">',
    '<h2 id="contents">Contents</h2>',
    "<ol>",
    '<li><a href="#overview">Overview</a></li>',
    ...groups,
    '<li><a href="#headers">Header fields</a></li>',
    '<li><a href="#errors">Errors</a></li>',
    "</ol>",
    "</nav>",
  ].join("\n");
}

function overview({ openapi, origin }: ReferenceInput): string {
  const info = asJson(openapi.info);
  const license = asJson(info.license);
  const contact = asJson(info.contact);
  const servers = (Array.isArray(openapi.servers) ? openapi.servers : []).map(asJson);
  return [
    '<section aria-labelledby="overview">',
    '<h2 id="overview">Overview</h2>',
    markdown(asString(info.description)),
    '<h3 id="deployment">This deployment</h3>',
    "<ul>",
    ...servers.map(
      (s) =>
        `<li>Server: <code>${text(asString(s.url))}</code> (${text(asString(s.description))})</li>`,
    ),
    "<li>Authentication: none; every operation is public.</li>",
    license.url
      ? `<li>Licence: <a href="${attr(asString(license.url))}">${text(asString(license.name))}</a>; <a href="${attr(asString(info.termsOfService))}">terms of use</a></li>`
      : "",
    contact.url || contact.email
      ? `<li>Contact: ${text(asString(contact.name))}${contact.url ? `, <a href="${attr(asString(contact.url))}">${text(asString(contact.url))}</a>` : ""}${contact.email ? `, <a href="mailto:${attr(asString(contact.email))}">${text(asString(contact.email))}</a>` : ""}</li>`
      : "",
    "</ul>",
    origin === undefined
      ? "<p>The samples read the origin from the environment variable <code>ORIGIN</code>: set it to this page's origin (<code>https://</code> and its host) first. Each stops, saying so, when it is not set. The JavaScript runs in Node.js 18 or later as an ES module; in a browser, set <code>origin</code> yourself. The Python needs only its standard library.</p>"
      : "<p>The JavaScript runs in Node.js 18 or later as an ES module, or in a browser; the Python needs only its standard library.</p>",
    "</section>",
  ]
    .filter(Boolean)
    .join("\n");
}

function tagSection(
  input: ReferenceInput,
  tag: JsonObject,
  operations: readonly Operation[],
): string {
  const name = asString(tag.name);
  return [
    `<section aria-labelledby="tag-${attr(slug(name))}">`,
    `<h2 id="tag-${attr(slug(name))}">${text(name)}</h2>`,
    markdown(asString(tag.description)),
    ...operations.map((o) => operationArticle(input, o)),
    "</section>",
  ].join("\n");
}

function operationArticle(input: ReferenceInput, o: Operation): string {
  const { openapi } = input;
  const id = opId(o);
  const example = input.examples.get(o.path);
  if (!example) throw new Error(`no example of ${o.path}`);
  const json = /json/.test(example.answer.mediaType);
  const shown = samples({ method: o.method, url: example.url, json }, input.origin);
  const request = SAMPLE_LANGUAGES.map(([language, label]) => {
    const code =
      language === "curl"
        ? shellExample(shown.curl, input.origin)
        : `<pre><code>${text(shown[language])}</code></pre>`;
    return `<figure class="sample" data-language="${language}"><figcaption>${text(label)}</figcaption>${code}</figure>`;
  });
  const answer = [
    `${example.answer.status} ${example.answer.status === 200 ? "OK" : "Not Found"}`,
    `Content-Type: ${example.answer.mediaType}`,
    "",
    o.method === "head" ? "(no body: the headers a GET would get)" : example.answer.shown,
  ].join("\n");
  return [
    `<article class="operation" aria-labelledby="${attr(id)}">`,
    `<h3 id="${attr(id)}"><span class="method">${o.method.toUpperCase()}</span> <code>${text(o.path)}</code></h3>`,
    `<p class="summary">${text(asString(o.op.summary))}</p>`,
    markdown(asString(o.op.description)),
    parametersTable(openapi, o, example.values),
    responsesTable(openapi, o),
    "<h4>Request</h4>",
    ...request,
    "<h4>Response</h4>",
    `<pre class="answer" data-status="${example.answer.status}"><code>${text(answer)}</code></pre>`,
    "</article>",
  ].join("\n");
}

function parametersTable(
  openapi: JsonObject,
  o: Operation,
  values: Readonly<Record<string, string>>,
) {
  const parameters = (Array.isArray(o.op.parameters) ? o.op.parameters : []).map((p) =>
    resolve(openapi, p),
  );
  if (parameters.length === 0) return "";
  const rows = parameters.map((p) => {
    const name = asString(p.name);
    const given = values[name];
    return [
      "<tr>",
      `<th scope="row"><code>${text(name)}</code></th>`,
      `<td data-label="In">${text(asString(p.in))}${p.required === true ? ", required" : ""}</td>`,
      `<td data-label="Schema">${schemaHtml(asJson(p.schema))}</td>`,
      `<td data-label="Meaning">${text(asString(p.description))}${given === undefined ? "" : ` The sample sends <code>${text(given)}</code>.`}</td>`,
      "</tr>",
    ].join("");
  });
  return [
    "<h4>Parameters</h4>",
    '<table class="cards">',
    '<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Schema</th><th scope="col">Meaning</th></tr></thead>',
    `<tbody>${rows.join("\n")}</tbody>`,
    "</table>",
  ].join("\n");
}

function responsesTable(openapi: JsonObject, o: Operation): string {
  const entries = Object.entries(asJson(o.op.responses));
  const row = (status: string, value: unknown) => {
    const response = resolve(openapi, value);
    const headers = Object.keys(asJson(response.headers))
      .map((h) => `<code>${text(h)}</code>`)
      .join(", ");
    const content = Object.entries(asJson(response.content)).map(([mediaType, media]) => {
      const schema = asJson(asJson(media).schema);
      const named = refName(schema);
      const body = named ? `<code>${text(named)}</code>` : schemaHtml(schema);
      return `<code>${text(mediaType)}</code>: ${body}`;
    });
    return [
      "<tr>",
      `<th scope="row">${text(status)}</th>`,
      `<td data-label="Meaning">${text(asString(response.description))}</td>`,
      `<td data-label="Header fields">${headers || "–"}</td>`,
      `<td data-label="Body">${content.join("<br>") || "none"}</td>`,
      "</tr>",
    ].join("");
  };
  // The errors are alike but for their texts: one row, each status linking to its own (Errors).
  const errors = entries.filter(([status]) => Number(status) >= 400);
  const resolved = errors.map(([, value]) => resolve(openapi, value));
  // The fields every error has, and the body's media types and schemas.
  const shared = Object.keys(asJson(resolved[0]?.headers)).filter((h) =>
    resolved.every((r) => asJson(r.headers)[h] !== undefined),
  );
  const bodies = [
    ...new Set(
      resolved.flatMap((r) =>
        Object.entries(asJson(r.content)).map(
          ([mediaType, media]) =>
            `<code>${text(mediaType)}</code>: <code>${text(refName(asJson(media).schema))}</code>`,
        ),
      ),
    ),
  ];
  const errorRow =
    errors.length === 0
      ? ""
      : [
          "<tr>",
          `<th scope="row">${errors.map(([s]) => `<a href="#error-${attr(s)}">${text(s)}</a>`).join(" ")}</th>`,
          '<td data-label="Meaning">Errors: each status links to its text and its own header fields.</td>',
          `<td data-label="Header fields">${shared.map((h) => `<code>${text(h)}</code>`).join(", ")}</td>`,
          `<td data-label="Body">${bodies.join("<br>")}</td>`,
          "</tr>",
        ].join("");
  return [
    "<h4>Responses</h4>",
    '<table class="cards">',
    '<thead><tr><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">Header fields</th><th scope="col">Body</th></tr></thead>',
    `<tbody>${entries
      .filter(([status]) => Number(status) < 400)
      .map(([status, value]) => row(status, value))
      .join("\n")}${errorRow}</tbody>`,
    "</table>",
  ].join("\n");
}

function headersSection(openapi: JsonObject): string {
  const headers = asJson(asJson(openapi.components).headers);
  const rows = Object.entries(headers).map(([name, value]) => {
    const header = asJson(value);
    const example = asJson(header.schema).example;
    return `<tr><th scope="row"><code>${text(name)}</code></th><td data-label="Meaning">${text(asString(header.description))}</td><td data-label="Example">${example === undefined ? "–" : `<code>${text(scalar(example))}</code>`}</td></tr>`;
  });
  return [
    '<section aria-labelledby="headers">',
    '<h2 id="headers">Header fields</h2>',
    "<p>The response header fields the operations above name.</p>",
    '<table class="cards">',
    '<thead><tr><th scope="col">Field</th><th scope="col">Meaning</th><th scope="col">Example</th></tr></thead>',
    `<tbody>${rows.join("\n")}</tbody>`,
    "</table>",
    "</section>",
  ].join("\n");
}

function errorsSection(openapi: JsonObject): string {
  const responses = asJson(asJson(openapi.components).responses);
  const errors = Object.entries(responses).map(([name, value]) => {
    const status = name.replace(/^Error/, "");
    const response = asJson(value);
    const headers = Object.keys(asJson(response.headers))
      .map((h) => `<code>${text(h)}</code>`)
      .join(", ");
    const [mediaType, media] = Object.entries(asJson(response.content))[0] ?? ["", {}];
    const example = asJson(media).example;
    const title = asString(asJson(example).title);
    return [
      `<h3 id="error-${attr(status)}">${text(`${status} ${title}`)}</h3>`,
      `<p>${text(asString(response.description))} Header fields: ${headers}.</p>`,
      `<pre class="answer" data-status="${attr(status)}"><code>${text(`${status} ${title}\nContent-Type: ${mediaType}\n\n${compactJson(example)}`)}</code></pre>`,
    ].join("\n");
  });
  return [
    '<section aria-labelledby="errors">',
    '<h2 id="errors">Errors</h2>',
    "<p>Every error has the body both specs define: exactly <code>status</code>, <code>title</code> and <code>description</code>, all text. An operation names the statuses it can answer.</p>",
    ...errors,
    "</section>",
  ].join("\n");
}
