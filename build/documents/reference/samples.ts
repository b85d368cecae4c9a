/**
 * The API reference's request samples: one request in curl, JavaScript (`fetch`) and Python (its
 * standard library's urllib), each printing the status, the Content-Type and the body, so what it
 * prints can be read against the answer the page shows (a test runs every one). The origin is
 * site.yaml's PublicOrigin, written out, or else read from ORIGIN, as the landing page's examples
 * do (docs/decisions.md#the-examples-name-the-pages-own-origin): each sample stops, saying so,
 * before it sends anything when ORIGIN is unset.
 */
import { ORIGIN, ORIGIN_VARIABLE } from "../landing/origin.js";

/** The languages, in the order the page shows them, with their labels. */
export const SAMPLE_LANGUAGES = [
  ["curl", "curl"],
  ["javascript", "JavaScript (fetch)"],
  ["python", "Python (urllib)"],
] as const;

export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number][0];

export interface SampleRequest {
  readonly method: "get" | "head";
  /** Path and query, already percent-encoded where a segment needs it. */
  readonly url: string;
  /** Whether the body is JSON (parsed and printed again) or text (printed as it is). */
  readonly json: boolean;
}

const NO_ORIGIN = `first set ${ORIGIN_VARIABLE} to the origin of this page, https:// and its host`;

/**
 * The curl sample, with ORIGIN standing for the origin (documents/landing/origin.ts writes it
 * out, or the shell variable and its guard). `-i` prints the status line and the header fields
 * before the body; `-I` sends HEAD.
 */
function curl({ method, url }: SampleRequest): string {
  return `curl -s${method === "head" ? "I" : "i"} "${ORIGIN}${url}"`;
}

function javascript({ method, url, json }: SampleRequest, origin: string | undefined): string {
  const from =
    origin === undefined
      ? [
          `// Node.js 18 or later, as an ES module (a .mjs file); in a browser, set origin yourself.`,
          `const origin = process.env.${ORIGIN_VARIABLE};`,
          `if (!origin) throw new Error("${NO_ORIGIN}");`,
        ]
      : [`const origin = ${JSON.stringify(origin)};`];
  const options = method === "head" ? `, { method: "HEAD" }` : "";
  const body =
    method === "head"
      ? []
      : json
        ? [`console.log(JSON.stringify(await response.json(), null, 2));`]
        : [`console.log(await response.text());`];
  return [
    ...from,
    `const response = await fetch(\`\${origin}${url}\`${options});`,
    `console.log(response.status, response.headers.get("Content-Type"));`,
    ...body,
  ].join("\n");
}

function python({ method, url, json }: SampleRequest, origin: string | undefined): string {
  const imports = [
    ...(method === "get" && json ? ["json"] : []),
    ...(origin === undefined ? ["os"] : []),
    "urllib.request",
  ];
  const from =
    origin === undefined
      ? `origin = os.environ["${ORIGIN_VARIABLE}"]  # ${NO_ORIGIN}`
      : `origin = ${JSON.stringify(origin)}`;
  const body =
    method === "head"
      ? []
      : json
        ? ["    print(json.dumps(json.load(response), indent=2))"]
        : ['    print(response.read().decode("utf-8"))'];
  return [
    `import ${imports.join(", ")}`,
    "",
    from,
    `request = urllib.request.Request(f"{origin}${url}"${method === "head" ? ', method="HEAD"' : ""})`,
    "with urllib.request.urlopen(request) as response:",
    '    print(response.status, response.headers["Content-Type"])',
    ...body,
  ].join("\n");
}

/**
 * The three samples of one request, as plain text. In curl's, ORIGIN
 * (documents/landing/origin.ts) stands for the origin, to be written as shellExample writes it;
 * the others name it themselves.
 */
export function samples(
  request: SampleRequest,
  origin: string | undefined,
): Record<SampleLanguage, string> {
  return {
    curl: curl(request),
    javascript: javascript(request, origin),
    python: python(request, origin),
  };
}
