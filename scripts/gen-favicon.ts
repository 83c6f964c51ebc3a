// Writes src/server/favicon.ico (committed; served at /favicon.ico and carried by the binary):
// the console's accent colour as a rounded square with a white yuan sign, drawn at 16 and 32 pixels
// (4x4 samples a pixel for smooth edges) into 32-bit BMP images, the ICO form every browser reads.
// Run it again only to change the drawing: bun scripts/gen-favicon.ts
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const ACCENT = [0x2f, 0x5b, 0xd3]; // --accent in src/admin/assets/console.css
const SIZES = [16, 32];

/** Distance from p to the segment a-b, in the unit square. */
function toSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

function inRoundedSquare(x: number, y: number, r = 0.22): boolean {
  const cx = Math.min(Math.max(x, r), 1 - r), cy = Math.min(Math.max(y, r), 1 - r);
  return Math.hypot(x - cx, y - cy) <= r;
}

// A yuan sign: two arms meeting above the middle, a stem, bars. Strokes are a whole number of
// pixels wide and the bars sit on pixel rows (hinted per size), so 16 px stays sharp; 16 px has
// room for one bar only.
function yuan(n: number): { segments: [number, number, number, number][]; half: number } {
  const px = Math.max(2, Math.round(0.1 * n)); // stroke width in pixels
  const row = (y: number) => (Math.round(y * n - px / 2) + px / 2) / n; // stroke edges on pixel edges
  const bars = n >= 32 ? [0.56, 0.72] : [0.62];
  return {
    half: px / 2 / n,
    segments: [
      [0.28, 0.2, 0.5, 0.5], [0.72, 0.2, 0.5, 0.5], [0.5, 0.5, 0.5, 0.82],
      ...bars.map((y) => [0.3, row(y), 0.7, row(y)] as [number, number, number, number]),
    ],
  };
}

function inSign(x: number, y: number, sign: ReturnType<typeof yuan>): boolean {
  return sign.segments.some(([ax, ay, bx, by]) => toSegment(x, y, ax, ay, bx, by) <= sign.half);
}

/** BGRA rows, bottom row first (BMP order). */
function draw(n: number): Buffer {
  const px = Buffer.alloc(n * n * 4);
  const S = 4;
  const sign = yuan(n);
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      let covered = 0, white = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = (col + (sx + 0.5) / S) / n, y = (row + (sy + 0.5) / S) / n;
          if (!inRoundedSquare(x, y)) continue;
          covered++;
          if (inSign(x, y, sign)) white++;
        }
      }
      const at = ((n - 1 - row) * n + col) * 4;
      if (covered === 0) continue;
      const w = white / covered;
      const [r, g, b] = ACCENT.map((c) => Math.round(c * (1 - w) + 255 * w)) as [number, number, number];
      px.set([b, g, r, Math.round((255 * covered) / (S * S))], at);
    }
  }
  return px;
}

function bmp(n: number): Buffer {
  const header = Buffer.alloc(40);
  const maskRow = Math.ceil(n / 32) * 4;
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(n, 4);
  header.writeInt32LE(n * 2, 8); // colour rows + AND-mask rows
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(n * n * 4 + maskRow * n, 20);
  return Buffer.concat([header, draw(n), Buffer.alloc(maskRow * n)]); // mask all 0: alpha decides
}

export function favicon(): Buffer {
  const images = SIZES.map(bmp);
  const dir = Buffer.alloc(6 + 16 * images.length);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(images.length, 4);
  let offset = dir.length;
  images.forEach((img, i) => {
    const e = 6 + 16 * i;
    dir.writeUInt8(SIZES[i]!, e);
    dir.writeUInt8(SIZES[i]!, e + 1);
    dir.writeUInt16LE(1, e + 4);
    dir.writeUInt16LE(32, e + 6);
    dir.writeUInt32LE(img.length, e + 8);
    dir.writeUInt32LE(offset, e + 12);
    offset += img.length;
  });
  return Buffer.concat([dir, ...images]);
}

if (import.meta.main) {
  const out = join(import.meta.dir, "..", "src", "server", "favicon.ico");
  writeFileSync(out, favicon());
  console.log(`wrote ${out}`);
}
