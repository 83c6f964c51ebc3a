// What a release file's header says: executable format, CPU, the ELF interpreter, and whether a
// Mach-O file carries a code signature (Apple silicon refuses to run an unsigned executable).
// The darwin and windows files cannot run here; their headers are what this machine can check.
import { closeSync, openSync, readSync } from "node:fs";

export interface Header {
  format: "elf" | "macho" | "pe" | "unknown";
  arch: "x64" | "arm64" | "other";
  /** ELF only: PT_INTERP, e.g. /lib/ld-musl-x86_64.so.1. */
  interpreter?: string;
  /** Mach-O only: an LC_CODE_SIGNATURE load command is present. */
  signed?: boolean;
}

function readAt(path: string, offset: number, length: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const b = Buffer.alloc(length);
    const n = readSync(fd, b, 0, length, offset);
    return b.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function elf(path: string, h: Buffer): Header {
  const machine = h.readUInt16LE(0x12);
  const arch = machine === 0x3e ? "x64" : machine === 0xb7 ? "arm64" : "other";
  const phoff = Number(h.readBigUInt64LE(0x20));
  const phentsize = h.readUInt16LE(0x36);
  const phnum = h.readUInt16LE(0x38);
  const ph = readAt(path, phoff, phentsize * phnum);
  for (let i = 0; i < phnum; i++) {
    const at = i * phentsize;
    if (ph.readUInt32LE(at) !== 3) continue; // PT_INTERP
    const interp = readAt(path, Number(ph.readBigUInt64LE(at + 8)), Number(ph.readBigUInt64LE(at + 32)));
    return { format: "elf", arch, interpreter: interp.toString("latin1").replace(/\0+$/, "") };
  }
  return { format: "elf", arch };
}

function macho(path: string, h: Buffer): Header {
  const cpu = h.readUInt32LE(4);
  const arch = cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : "other";
  const ncmds = h.readUInt32LE(16);
  const cmds = readAt(path, 32, h.readUInt32LE(20));
  let signed = false;
  for (let i = 0, at = 0; i < ncmds && at + 8 <= cmds.length; i++) {
    if (cmds.readUInt32LE(at) === 0x1d) signed = true; // LC_CODE_SIGNATURE
    at += cmds.readUInt32LE(at + 4);
  }
  return { format: "macho", arch, signed };
}

function pe(path: string, h: Buffer): Header {
  const at = h.readUInt32LE(0x3c);
  const nt = readAt(path, at, 6);
  if (nt.toString("latin1", 0, 4) !== "PE\0\0") return { format: "unknown", arch: "other" };
  const machine = nt.readUInt16LE(4);
  return { format: "pe", arch: machine === 0x8664 ? "x64" : machine === 0xaa64 ? "arm64" : "other" };
}

export function readHeader(path: string): Header {
  const h = readAt(path, 0, 64);
  if (h.length >= 64 && h.toString("latin1", 0, 4) === "\x7fELF" && h[4] === 2) return elf(path, h);
  if (h.length >= 32 && h.readUInt32LE(0) === 0xfeedfacf) return macho(path, h);
  if (h.length >= 64 && h.toString("latin1", 0, 2) === "MZ") return pe(path, h);
  return { format: "unknown", arch: "other" };
}
