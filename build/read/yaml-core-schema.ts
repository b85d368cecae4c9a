/**
 * The YAML 1.2 core schema for js-yaml, resolving scalars exactly as the yaml package's `core`
 * schema does, so the fast reader (yaml-fast.ts) gives the values `yaml` gives.
 *
 * js-yaml's own CORE_SCHEMA is its JSON schema and wider than the spec's core schema (YAML 1.2.2
 * section 10.3.2): it reads `0b11`, `-0x1F` and `+0o17` as integers, `-0` as 0, and a number too
 * large for a double as a string; yaml reads the first three as strings, `-0` as -0, and the last
 * as Infinity. Here every test and construction is yaml 2.9's (`yaml/dist/schema/core/*.js`), in
 * its order: null, bool, int (octal, decimal, hexadecimal), float (`.inf`/`.nan`, exponent, plain).
 * An explicit tag (`!!int 12`) must pass the same test, as in yaml; `!!str` takes any scalar.
 *
 * Only the core tags exist: yaml also constructs `!!binary`, `!!timestamp`, `!!set`, `!!omap` and
 * `!!pairs` under its core schema (a Buffer, a Date…), which no content file means to write; here
 * they are unknown tags, refused like any other (docs/decisions.md, "Content is parsed by
 * js-yaml").
 */
import { FAILSAFE_SCHEMA, Type } from "js-yaml";

// An empty node with an explicit tag (`Name: !!int`) reaches `resolve` as null: yaml tests it as "".
const text = (data: unknown): string => (typeof data === "string" ? data : "");

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

// Every plain scalar, every key included, is tried against each type in turn: a look at its first
// character rules most out before any pattern runs.
const first = (s: string): number => s.charCodeAt(0);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isSign = (c: number): boolean => c === 0x2b || c === 0x2d;

const nullType = new Type("tag:yaml.org,2002:null", {
  kind: "scalar",
  resolve: (data) => {
    const s = text(data);
    const c = first(s);
    return (s === "" || c === 0x7e || c === 0x6e || c === 0x4e) && NULL.test(s); // ~ n N
  },
  construct: () => null,
});

const boolType = new Type("tag:yaml.org,2002:bool", {
  kind: "scalar",
  resolve: (data) => {
    const s = text(data);
    const c = first(s) | 0x20;
    return (c === 0x74 || c === 0x66) && BOOL.test(s); // t T f F
  },
  construct: (data: string) => data[0] === "t" || data[0] === "T",
});

const intType = new Type("tag:yaml.org,2002:int", {
  kind: "scalar",
  resolve: (data) => {
    const s = text(data);
    const c = first(s);
    if (!isDigit(c) && !isSign(c)) return false;
    return INT_OCT.test(s) || INT.test(s) || INT_HEX.test(s);
  },
  // yaml: parseInt of the digits after the prefix, so "-0" is -0 and 400 digits are Infinity.
  construct: (data: string) =>
    INT_OCT.test(data)
      ? parseInt(data.substring(2), 8)
      : INT.test(data)
        ? parseInt(data, 10)
        : parseInt(data.substring(2), 16),
});

const floatType = new Type("tag:yaml.org,2002:float", {
  kind: "scalar",
  resolve: (data) => {
    const s = text(data);
    const c = first(s);
    if (!isDigit(c) && !isSign(c) && c !== 0x2e) return false; // a digit, + - or .
    return FLOAT_NAN.test(s) || FLOAT_EXP.test(s) || FLOAT.test(s);
  },
  construct: (data: string) => {
    if (!FLOAT_NAN.test(data)) return parseFloat(data);
    if (data.slice(-3).toLowerCase() === "nan") return NaN;
    return data[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  },
});

/** Strings, sequences and mappings (the failsafe schema) and yaml's core scalars, in its order. */
export const YAML_CORE_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: [nullType, boolType, intType, floatType],
});
