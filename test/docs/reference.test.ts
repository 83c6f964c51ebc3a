// docs/reference.md is generated from the route schemas: a schema change without
// `npm run docs:reference` fails here, so the reference cannot drift.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { REFERENCE_PATH, renderReference } from "../../scripts/gen-reference.ts";
import { ROUTES } from "../../src/server/openapi.ts";

test("docs/reference.md equals the text generated from the route schemas (run `npm run docs:reference`)", () => {
  expect(readFileSync(REFERENCE_PATH, "utf8")).toBe(renderReference());
});

test("every documented route has a heading and every schema field a row", () => {
  const text = renderReference();
  for (const r of ROUTES) {
    expect(text).toContain(`### ${r.methods.join(" / ")} ${r.path}\n`);
    for (const name of Object.keys(r.params.schema.properties)) expect(text).toContain(`| \`${name}\` |`);
  }
});
