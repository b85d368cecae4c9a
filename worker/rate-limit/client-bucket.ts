/**
 * Who the client is, for rate limiting: the address in CF-Connecting-IP, which Cloudflare sets
 * and overwrites. X-Forwarded-For is never read: any client can write it.
 */

/** Header that carries the client's address. */
export const CLIENT_ADDRESS_HEADER = "CF-Connecting-IP";
/** The one bucket shared by every request without a usable address. */
export const UNKNOWN_CLIENT = "unknown";

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEXTET = /^[0-9a-f]{1,4}$/;

/**
 * The counting bucket of an address: an IPv4 address itself, an IPv6 address's /64 prefix (one
 * host controls a whole /64), an IPv4-mapped IPv6 address as its IPv4 address, and UNKNOWN_CLIENT
 * for anything missing or malformed.
 */
export function clientBucket(address: string | null): string {
  if (!address || address.length > 45) return UNKNOWN_CLIENT;
  const v = address.trim().toLowerCase();
  return ipv4(v) ?? ipv6Prefix(v) ?? UNKNOWN_CLIENT;
}

function ipv4(v: string): string | undefined {
  const m = IPV4.exec(v);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.every((n) => n <= 255) ? octets.join(".") : undefined;
}

function ipv6Prefix(v: string): string | undefined {
  const hextets = ipv6Hextets(v);
  if (!hextets) return undefined;
  // ::ffff:a.b.c.d is an IPv4 client seen through an IPv6 socket (RFC 4291 section 2.5.5.2).
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    const [hi = 0, lo = 0] = hextets.slice(6);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return `${hextets
    .slice(0, 4)
    .map((h) => h.toString(16))
    .join(":")}::/64`;
}

// The eight 16-bit groups of an IPv6 address, or undefined when it is not one.
function ipv6Hextets(v: string): number[] | undefined {
  if (!v.includes(":")) return undefined;
  // A dotted IPv4 tail may only come last (RFC 4291 section 2.2, form 3).
  const dot = v.indexOf(".");
  if (dot >= 0 && v.lastIndexOf(":") > dot) return undefined;
  const halves = v.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string | undefined): string[] | undefined => {
    if (!part) return [];
    const out: string[] = [];
    for (const g of part.split(":")) {
      if (HEXTET.test(g)) out.push(g);
      else if (g.includes(".")) {
        const four = ipv4(g);
        if (!four) return undefined;
        const [a = 0, b = 0, c = 0, d = 0] = four.split(".").map(Number);
        out.push(((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
      } else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...Array<string>(missing).fill("0"), ...tail];
  return all.map((h) => parseInt(h, 16));
}
