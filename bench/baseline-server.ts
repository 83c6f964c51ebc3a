// The baseline: a bare Elysia route on Bun answering a constant, run as its own process like the
// gateway, so both are measured by the same client the same way. Prints its port.
import { Elysia } from "elysia";

const app = new Elysia().post("/", () => ({ code: 200, msg: "success", data: null })).listen({ port: 0, hostname: "127.0.0.1" });
console.log(app.server!.port);
