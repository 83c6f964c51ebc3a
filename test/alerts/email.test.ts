// The e-mail channel against a tiny SMTP receiver written here: plain TCP on 127.0.0.1 speaking
// just enough SMTP (EHLO, AUTH PLAIN, MAIL FROM, RCPT TO, DATA, QUIT), no TLS. It records the
// dialogue and the message, and the test checks the envelope, the headers and the body.
import { afterAll, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import { sendThrough } from "../../src/core/alerts/channels/send.ts";
import type { AlertChannel } from "../../src/core/alerts/store.ts";
import { testMessage } from "../../src/core/alerts/render.ts";

interface Mail {
  commands: string[];
  data: string;
}

function smtpReceiver(o: { rejectRcpt?: boolean } = {}): Promise<{ port: number; mails: Mail[]; server: Server }> {
  const mails: Mail[] = [];
  const server = createServer((sock: Socket) => {
    const mail: Mail = { commands: [], data: "" };
    let inData = false;
    let buffer = "";
    sock.write("220 test.local ESMTP ready\r\n");
    sock.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let i: number;
      while ((i = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            mails.push(mail);
            sock.write("250 2.0.0 Ok: queued as TEST123\r\n");
          } else mail.data += `${line.startsWith("..") ? line.slice(1) : line}\r\n`;
          continue;
        }
        mail.commands.push(line);
        const verb = line.split(" ")[0]!.toUpperCase();
        if (verb === "EHLO") sock.write("250-test.local\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n");
        else if (verb === "AUTH") sock.write("235 2.7.0 Authentication successful\r\n");
        else if (verb === "MAIL") sock.write("250 2.1.0 Ok\r\n");
        else if (verb === "RCPT") sock.write(o.rejectRcpt ? "550 5.1.1 No such user\r\n" : "250 2.1.5 Ok\r\n");
        else if (verb === "DATA") (inData = true), sock.write("354 End data with <CR><LF>.<CR><LF>\r\n");
        else if (verb === "QUIT") sock.end("221 2.0.0 Bye\r\n");
        else sock.write("502 5.5.2 Error: command not recognized\r\n");
      }
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ port: (server.address() as { port: number }).port, mails, server })));
}

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

const channel = (port: number, extra: Record<string, string> = {}): AlertChannel => ({
  id: 1, name: "mail", type: "email", enabled: true, createdAt: 0,
  config: { host: "127.0.0.1", port: String(port), tls: "none", user: "ops@example.com", pass: "app-password-1", from: "xpay <xpay@example.com>", to: "ops@example.com, boss@example.com", ...extra },
});

test("one alert as one e-mail: envelope, login, headers and the plain-text body", async () => {
  const r = await smtpReceiver();
  servers.push(r.server);
  const message = testMessage("mail", { nowMs: Date.UTC(2026, 10, 23, 12, 0, 0), timeZone: "Asia/Shanghai" });
  const attempt = await sendThrough(channel(r.port), message, { nowMs: Date.now() });
  expect(attempt).toMatchObject({ ok: true, httpStatus: null, error: "", answer: "250 2.0.0 Ok: queued as TEST123" });
  expect(r.mails.length).toBe(1);
  const m = r.mails[0]!;
  expect(m.commands[0]).toMatch(/^EHLO /);
  // AUTH PLAIN carries "\0user\0pass" in Base64.
  expect(m.commands[1]).toBe(`AUTH PLAIN ${Buffer.from("\0ops@example.com\0app-password-1").toString("base64")}`);
  expect(m.commands.slice(2, 5)).toEqual(["MAIL FROM:<xpay@example.com>", "RCPT TO:<ops@example.com>", "RCPT TO:<boss@example.com>"]);
  const [head, body] = m.data.split("\r\n\r\n", 2) as [string, string];
  const headers = Object.fromEntries(head.replace(/\r\n\s+/g, " ").split("\r\n").map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  expect(headers.from).toBe("xpay <xpay@example.com>");
  expect(headers.to).toBe("ops@example.com, boss@example.com");
  expect(headers.subject).toBe("xpay: test of alert channel mail");
  expect(headers["content-type"]).toBe("text/plain; charset=utf-8");
  expect(body.replace(/\r\n/g, "\n").trim()).toBe(message.text);
});

test("a refused recipient and a server that is down are failed attempts", async () => {
  const r = await smtpReceiver({ rejectRcpt: true });
  servers.push(r.server);
  const refused = await sendThrough(channel(r.port, { to: "nobody@example.com" }), testMessage("mail", { nowMs: 0, timeZone: "UTC" }), { nowMs: 0 });
  expect(refused.ok).toBe(false);
  expect(refused.error).toContain("550");
  r.server.close();
  const down = await sendThrough(channel(r.port), testMessage("mail", { nowMs: 0, timeZone: "UTC" }), { nowMs: 0, timeoutMs: 2000 });
  expect(down).toMatchObject({ ok: false, httpStatus: null });
  expect(down.error).toMatch(/ECONNREFUSED|connect/i);
  expect(down.error).not.toContain("app-password-1");
});
