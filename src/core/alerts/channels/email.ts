// E-mail over SMTP through nodemailer: host and port, TLS from the first byte (`tls`, usually port
// 465), STARTTLS required (`starttls`, usually 587) or none (`none`: a relay on localhost), an
// optional login, one sender and one or more recipients (comma-separated). Plain-text body; the
// subject is the message's title. Every wait is bounded, so a mail server that hangs costs one
// attempt's timeout and nothing else.
import { problem } from "../../problem.ts";
import type { AlertMessage } from "../types.ts";
import type { ChannelKind } from "./kind.ts";

const ADDRESS = /^[^\s@<>,]+@[^\s@<>,]+$/;

/** The nodemailer transport options of a channel (tests read them too). */
export function smtpOptions(c: Record<string, string>, timeoutMs: number) {
  const tls = c.tls ?? "starttls";
  return {
    host: c.host!,
    port: Number(c.port || (tls === "tls" ? 465 : 587)),
    secure: tls === "tls",
    requireTLS: tls === "starttls",
    ignoreTLS: tls === "none",
    ...(c.user ? { auth: { user: c.user, pass: c.pass ?? "" } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

export function mailOf(c: Record<string, string>, m: AlertMessage) {
  return { from: c.from!, to: c.to!.split(",").map((s) => s.trim()).filter(Boolean), subject: m.title, text: m.text };
}

export const email: ChannelKind = {
  type: "email",
  label: "e-mail (SMTP)",
  fields: [
    { key: "host", help: "SMTP server, e.g. smtp.qq.com", required: true },
    { key: "port", help: "SMTP port (default 465 with --tls tls, else 587)" },
    { key: "tls", help: "tls (implicit TLS), starttls (default; refuses a server without it) or none", values: ["tls", "starttls", "none"] },
    { key: "user", help: "login user (often the address)" },
    { key: "pass", help: "login password or app password (授权码)", secret: true },
    { key: "from", help: "sender address, e.g. xpay@example.com or \"xpay <xpay@example.com>\"", required: true },
    { key: "to", help: "recipient address(es), comma-separated", required: true },
  ],
  check(c) {
    if (c.port !== undefined && !(/^\d{1,5}$/.test(c.port) && Number(c.port) >= 1 && Number(c.port) <= 65535)) return problem("alert.port", "--port must be a port number from 1 to 65535");
    if (/[\s/:]/.test(c.host ?? "")) return problem("alert.host", "--host must be a host name or address, without scheme or port (use --port)");
    const from = /<([^>]+)>\s*$/.exec(c.from ?? "")?.[1] ?? c.from ?? "";
    if (!ADDRESS.test(from.trim())) return problem("alert.from", "--from must be an e-mail address");
    const to = (c.to ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    if (to.length === 0 || !to.every((a) => ADDRESS.test(a))) return problem("alert.to", "--to must be one or more e-mail addresses, comma-separated");
    if (c.pass && !c.user) return problem("alert.pass_user", "--pass needs --user");
    return null;
  },
  async send(c, m, o) {
    const { default: nodemailer } = await import("nodemailer");
    const transport = nodemailer.createTransport(smtpOptions(c, o.timeoutMs));
    try {
      const info = await transport.sendMail(mailOf(c, m));
      const rejected = (info.rejected ?? []).map(String);
      const answer = String(info.response ?? "").slice(0, 512);
      return rejected.length ? { ok: false, httpStatus: null, answer, error: `rejected: ${rejected.join(", ")}` } : { ok: true, httpStatus: null, answer, error: "" };
    } catch (e) {
      const err = e as { message?: string; response?: string };
      return { ok: false, httpStatus: null, answer: String(err.response ?? "").slice(0, 512), error: String(err.message ?? e).slice(0, 300) };
    } finally {
      transport.close();
    }
  },
};
