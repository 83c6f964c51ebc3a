// Every family's form and query reader (protocols/params.ts formPairs) reads a text into the same
// pairs as URLSearchParams, the WHATWG form decoding: the signature is checked over those values,
// so one character read differently is a valid request refused or a different string signed.
import { describe, expect, test } from "bun:test";
import { formPairs, fromForm } from "../../src/protocols/params.ts";
import { seeded } from "../seeded.ts";

// Pieces a hostile or careless client puts in a body: separators, plus signs, percent sequences
// valid and not (truncated, overlong, a surrogate, past U+10FFFF, not hex), raw non-ASCII, a lone
// surrogate, NUL, brackets and a leading "?".
const PIECES = [
  "a", "b", "pid", "sign", "=", "==", "&", "&&", "+", "++", "%", "%2", "%41", "%2B", "%2b", "%26", "%3D", "%20", "%25",
  "%C3%A9", "%E4%B8%AD", "%F0%9F%98%80", "%EF%BB%BF", "%C3", "%E4%B8", "%ED%A0%80", "%C0%AF", "%F4%90%80%80", "%FF", "%zz", "%G1",
  "é", "中", "😀", "\uD800", "\uDC00", "?", " ", "[]", "x[a]", "%00", "\0", "1.00", "http%3A%2F%2Fa.example%2Fn%3Fx%3D1%26y%3D2",
];

function randomText(next: () => number): string {
  const n = Math.floor(next() * 14);
  let text = "";
  for (let i = 0; i < n; i++) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

describe("formPairs", () => {
  test("reads 30 000 random texts exactly as URLSearchParams does", () => {
    const next = seeded(20261129);
    let percent = 0;
    for (let i = 0; i < 30_000; i++) {
      const text = randomText(next);
      if (text.includes("%")) percent++;
      const expected = [...new URLSearchParams(text)];
      const got = formPairs(text);
      if (JSON.stringify(got) !== JSON.stringify(expected)) throw new Error(`text ${JSON.stringify(text)}: ${JSON.stringify(got)} against ${JSON.stringify(expected)}`);
    }
    expect(percent).toBeGreaterThan(10_000); // the percent paths were taken, not only the plain one
  });

  test("the cases a signature depends on", () => {
    expect(formPairs("?a=1")).toEqual([["a", "1"]]);
    expect(formPairs("a=1&&b&=c&")).toEqual([["a", "1"], ["b", ""], ["", "c"]]);
    expect(formPairs("a+b=c+d%2B%26e=f")).toEqual([["a b", "c d+&e=f"]]);
    expect(formPairs("x=%zz&y=%C3")).toEqual([["x", "%zz"], ["y", "\uFFFD"]]);
    expect(formPairs("n=%E4%B8%AD%E6%96%87&u=http%3A%2F%2Fa%2Fb")).toEqual([["n", "中文"], ["u", "http://a/b"]]);
    expect(formPairs("\uD800=1")).toEqual([["\uFFFD", "1"]]);
  });

  test("fromForm keeps its refusals: a key twice, a bracket key, a NUL", () => {
    expect(fromForm("a=1&a=2")).toEqual({ ok: false, reason: "parameter a is given more than once" });
    expect(fromForm("a%5B%5D=1")).toEqual({ ok: false, reason: "parameter a[] must be a string" });
    expect(fromForm("a=%00")).toEqual({ ok: false, reason: "a parameter contains a NUL character" });
    expect(fromForm("money=1.00&name=%E4%B8%AD")).toEqual({ ok: true, params: { money: "1.00", name: "中" } });
  });
});
