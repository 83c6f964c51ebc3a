import { afterEach, beforeEach, expect, test } from "bun:test";
import { harness, type Harness } from "../helpers.ts";

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(() => h.close());

test("GET /openapi/json describes the native, template and report routes with their parameters", async () => {
  const res = await h.app.handle(new Request("http://localhost/openapi/json"));
  expect(res.status).toBe(200);
  const doc = (await res.json()) as any;
  expect(doc.openapi).toMatch(/^3\./);
  const create = doc.paths["/xpay/order/create"].post;
  expect(create.summary).toBe("Create an order");
  const schema = create.requestBody.content["application/x-www-form-urlencoded"].schema;
  expect(schema.required).toEqual(expect.arrayContaining(["pid", "pay_type", "name", "money", "out_trade_no", "sign"]));
  expect(schema.properties.money.pattern).toBe("^\\d{1,8}(\\.\\d{1,2})?$");
  expect(doc.paths["/api/order/info"].post).toBeDefined();
  const pc = doc.paths["/api/report/{pid}/pc"];
  expect(pc.get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(["pid", "amount", "sign"]));
  expect(pc.post.parameters[0]).toMatchObject({ name: "pid", in: "path" });
});

test("GET /openapi loads nothing from a CDN: it redirects to the JSON document", async () => {
  const res = await h.app.handle(new Request("http://localhost/openapi"));
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/openapi/json");
  const doc = await (await h.app.handle(new Request("http://localhost/openapi/json"))).text();
  expect(doc).not.toContain("cdn.jsdelivr.net");
  expect(doc).not.toContain("<script");
});
