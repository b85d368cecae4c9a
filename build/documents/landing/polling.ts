/**
 * The polling loop the landing page shows scrapers (docs/consumers.md shows the same, and a test
 * runs it against the Worker): curl keeps the ETag between runs, so an unchanged data set costs a
 * 304 with no body, and a 429 or 503 is waited out as Retry-After says.
 */

/** A shell function and the loop calling it, for the data set at `url` kept in `file`. */
export function pollingLoop(url: string, file: string): string {
  return [
    "poll() {  # $1: the data set's URL, $2: the file to keep it in",
    `  status=$(curl -sS --compressed --etag-compare "$2.etag" --etag-save "$2.etag" \\`,
    `    -D "$2.headers" -o "$2.new" -w '%{http_code}' "$1")`,
    `  case "$status" in`,
    `    200) mv "$2.new" "$2" ;;  # changed: keep the new copy`,
    `    304) rm -f "$2.new" ;;    # unchanged: no body was sent`,
    `    *) retry=$(sed -n 's/^retry-after: *\\([0-9]*\\).*/\\1/ip' "$2.headers")`,
    `       sleep "\${retry:-60}" ;;  # 429 or 503: wait as Retry-After says`,
    "  esac",
    "}",
    `while :; do poll ${url} ${file}; sleep 300; done`,
  ].join("\n");
}
