/**
 * Small PNGs for the README's screenshots: Chromium's screenshot is decoded and re-encoded with
 * a palette of at most 256 colours (the most frequent ones; every other colour becomes its
 * nearest), which a page of flat UI colours and text survives with little visible change at a
 * fraction of the size.
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Pixels {
  width: number;
  height: number;
  /** RGB, three bytes a pixel. */
  rgb: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes) into RGB pixels. */
export function decodePng(png: Buffer): Pixels {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      const colorType = body[9];
      const interlace = body[12];
      if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) {
        throw new Error('only 8-bit, non-interlaced RGB or RGBA PNGs are supported');
      }
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const current = new Uint8Array(stride);
  const previous = new Uint8Array(stride);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x += 1) {
      const left = x >= channels ? (current[x - channels] ?? 0) : 0;
      const up = previous[x] ?? 0;
      const upLeft = x >= channels ? (previous[x - channels] ?? 0) : 0;
      const value = line[x] ?? 0;
      const predictor =
        filter === 1
          ? left
          : filter === 2
            ? up
            : filter === 3
              ? (left + up) >> 1
              : filter === 4
                ? paeth(left, up, upLeft)
                : 0;
      current[x] = (value + predictor) & 0xff;
    }
    for (let x = 0; x < width; x += 1) {
      rgb.set(current.subarray(x * channels, x * channels + 3), (y * width + x) * 3);
    }
    previous.set(current);
  }
  return { width, height, rgb };
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
  return Buffer.concat([head, body, crc]);
}

/** Re-encodes a screenshot as an indexed PNG of at most 256 colours. */
export function paletteVersion(png: Buffer): Buffer {
  const { width, height, rgb } = decodePng(png);
  const pixels = width * height;
  // Colours are grouped at 5 bits a channel; a group's colour is the mean of its pixels.
  const keys = new Uint16Array(pixels);
  const counts = new Uint32Array(32_768);
  const sums = new Float64Array(32_768 * 3);
  for (let i = 0; i < pixels; i += 1) {
    const r = rgb[i * 3] ?? 0;
    const g = rgb[i * 3 + 1] ?? 0;
    const b = rgb[i * 3 + 2] ?? 0;
    const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    keys[i] = key;
    counts[key] = (counts[key] ?? 0) + 1;
    sums[key * 3] = (sums[key * 3] ?? 0) + r;
    sums[key * 3 + 1] = (sums[key * 3 + 1] ?? 0) + g;
    sums[key * 3 + 2] = (sums[key * 3 + 2] ?? 0) + b;
  }
  const used = [...counts.keys()].filter((key) => (counts[key] ?? 0) > 0);
  used.sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0));
  const chosen = used.slice(0, 256);
  const palette = chosen.map((key) => {
    const n = counts[key] ?? 1;
    return [0, 1, 2].map((c) => Math.round((sums[key * 3 + c] ?? 0) / n));
  });
  const index = new Int16Array(32_768).fill(-1);
  chosen.forEach((key, i) => {
    index[key] = i;
  });
  const nearest = (key: number): number => {
    const r = ((key >> 10) & 31) << 3;
    const g = ((key >> 5) & 31) << 3;
    const b = (key & 31) << 3;
    let best = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    palette.forEach(([pr = 0, pg = 0, pb = 0], i) => {
      const d = (pr - r) ** 2 + (pg - g) ** 2 + (pb - b) ** 2;
      if (d < bestDistance) {
        bestDistance = d;
        best = i;
      }
    });
    return best;
  };
  const rows = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y += 1) {
    rows[y * (width + 1)] = 0;
    for (let x = 0; x < width; x += 1) {
      const key = keys[y * width + x] ?? 0;
      let entry = index[key] ?? -1;
      if (entry < 0) {
        entry = nearest(key);
        index[key] = entry;
      }
      rows[y * (width + 1) + 1 + x] = entry;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 3;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from(palette.flat())),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
