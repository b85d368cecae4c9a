/** The JSON helpers the tests read bodies and break samples with: RFC 6901 pointers, typed. */
import { describe, expect, it } from "vitest";
import {
  arrayAt,
  at,
  find,
  objectAt,
  parseEnvelope,
  parseJson,
  pointer,
  stringAt,
} from "./json.js";

// RFC 6901 section 5's example document and the values its pointers give.
const RFC_DOC = parseJson(
  '{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\\\j":5,"k\\"l":6," ":7,"m~n":8}',
);

describe("JSON pointers", () => {
  it.each([
    ["", RFC_DOC],
    ["/foo", ["bar", "baz"]],
    ["/foo/0", "bar"],
    ["/", 0],
    ["/a~1b", 1],
    ["/c%d", 2],
    ["/e^f", 3],
    ["/g|h", 4],
    ["/i\\j", 5],
    ['/k"l', 6],
    ["/ ", 7],
    ["/m~0n", 8],
  ])("reads %j as RFC 6901 section 5 does", (path, value) => {
    expect(at(RFC_DOC, path)).toEqual(value);
    expect(find(RFC_DOC, path)).toEqual(value);
  });

  it("escapes ~ and / when it makes a pointer from tokens", () => {
    expect(pointer("paths", "/std/v2.2/atms", "m~n", 0)).toBe("/paths/~1std~1v2.2~1atms/m~0n/0");
  });

  it("finds nothing past the end of a list, at a leading zero, or through a string", () => {
    expect(find(RFC_DOC, "/foo/2")).toBeUndefined();
    expect(find(RFC_DOC, "/foo/01")).toBeUndefined();
    expect(find(RFC_DOC, "/foo/0/length")).toBeUndefined();
    expect(find({ a: 1 }, "/toString")).toBeUndefined();
  });

  it("names how far a pointer got when there is nothing at it", () => {
    expect(() => at(RFC_DOC, "/foo/2")).toThrow("nothing at /foo/2: /foo is a list without 2");
    expect(() => at(RFC_DOC, "/bar/x")).toThrow(
      "nothing at /bar/x: the root is an object without bar",
    );
  });

  it("says what it found where a kind was expected", () => {
    expect(() => objectAt(RFC_DOC, "/foo")).toThrow("/foo is a list, not an object");
    expect(() => arrayAt(RFC_DOC, "/ ")).toThrow("/  is a number, not a list");
    expect(() => stringAt(RFC_DOC, "/a~1b")).toThrow("/a~1b is a number, not a string");
    expect(() => at(RFC_DOC, "foo")).toThrow('"foo" is not a JSON pointer');
  });

  it("gives the object itself, so a change through it changes the document", () => {
    const doc = parseJson('{"data":[{"Brand":[{"BrandName":"A"}]}]}');
    objectAt(doc, "/data/0/Brand/0").BrandName = "B";
    arrayAt(doc, "/data/0/Brand").push({ BrandName: "C" });
    expect(doc).toEqual({ data: [{ Brand: [{ BrandName: "B" }, { BrandName: "C" }] }] });
  });
});

describe("parseEnvelope", () => {
  it("reads text or UTF-8 bytes with meta and data[].Brand[]", () => {
    const text = '{"meta":{"TotalResults":1},"data":[{"Brand":[{"BrandName":"Ŵ"}]}]}';
    expect(parseEnvelope(text).data[0]!.Brand[0]!.BrandName).toBe("Ŵ");
    expect(parseEnvelope(Buffer.from(text, "utf8"))).toEqual(parseEnvelope(text));
  });

  it("refuses a body without meta, or with a brand that is not an object", () => {
    expect(() => parseEnvelope('{"data":[]}')).toThrow("nothing at /meta");
    expect(() => parseEnvelope('{"meta":{},"data":[{"Brand":["A"]}]}')).toThrow(
      "/data/0/Brand/0 is a string, not an object",
    );
  });
});
