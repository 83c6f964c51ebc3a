// serve's built-in TLS (`--tls-cert FILE --tls-key FILE`), for an operator without a reverse proxy.
// The files are read whole at start and at each SIGHUP (a renewed certificate: certbot's deploy
// hook runs `systemctl reload xpay`), so a file that is missing, unreadable or not PEM is one line
// naming it, and the listener keeps the certificate it has.
import { readFileSync } from "node:fs";
import { X509Certificate } from "node:crypto";

export interface TlsFiles {
  cert: string;
  key: string;
}

export class TlsFileError extends Error {}

function read(path: string, what: string, marker: RegExp): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new TlsFileError(`${what} ${path}: ${code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied (the service user must read it)" : String(e)}`);
  }
  if (!marker.test(text)) throw new TlsFileError(`${what} ${path} is not a PEM file (no ${marker.source.replace(/\\/g, "")} line)`);
  return text;
}

/** The PEM texts Bun.serve takes as `tls`. */
export function readTls(f: TlsFiles): { cert: string; key: string } {
  return { cert: read(f.cert, "--tls-cert", /-----BEGIN CERTIFICATE-----/), key: read(f.key, "--tls-key", /-----BEGIN [A-Z ]*PRIVATE KEY-----/) };
}

/** One line about the certificate now served: subject and expiry (for the log). */
export function describeCert(f: TlsFiles): { subject: string; expires: string } {
  try {
    const c = new X509Certificate(readFileSync(f.cert));
    return { subject: c.subject.replace(/\n/g, ", "), expires: new Date(c.validTo).toISOString() };
  } catch {
    return { subject: "?", expires: "?" };
  }
}
