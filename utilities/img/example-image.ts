import { crc32, deflateSync } from "node:zlib";

// The img group's input_example files, built here (synchronously, at import) rather than pasted
// as opaque base64: a 96×64 RGB PNG of three flat colour blocks, and a small SVG logo.

/** The example PNG's colours: the left half, the top right and the bottom right quarter. */
export const EXAMPLE_COLORS = { left: [0x1e, 0x40, 0xaf], topRight: [0xf5, 0x9e, 0x0b], bottomRight: [0xff, 0xff, 0xff] } as const;
export const EXAMPLE_WIDTH = 96;
export const EXAMPLE_HEIGHT = 64;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A truecolour PNG from a pixel function (8-bit RGB, no filter). */
export function pngOf(width: number, height: number, pixel: (x: number, y: number) => readonly number[]): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) raw.set(pixel(x, y).slice(0, 3), row + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

export function examplePng(): Buffer {
  const half = EXAMPLE_WIDTH / 2;
  return pngOf(EXAMPLE_WIDTH, EXAMPLE_HEIGHT, (x, y) => (x < half ? EXAMPLE_COLORS.left : y < EXAMPLE_HEIGHT / 2 ? EXAMPLE_COLORS.topRight : EXAMPLE_COLORS.bottomRight));
}

/** A 64×64 logo: a rounded blue square with a white "S"-like path, plus Inkscape's cruft for svg_optimize. */
export const EXAMPLE_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generator: Example Editor 1.0 -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" width="64" height="64" viewBox="0 0 64 64" inkscape:version="1.3">
  <sodipodi:namedview id="view" pagecolor="#ffffff" inkscape:zoom="8"/>
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>
  <title>Logo</title>
  <g>
    <rect x="0" y="0" width="64" height="64" rx="12.000000" fill="#1e40af"/>
    <path d="M 44.000000 18.000000 L 24.000000 18.000000 L 20.000000 22.000000 L 20.000000 30.000000 L 44.000000 34.000000 L 44.000000 42.000000 L 40.000000 46.000000 L 20.000000 46.000000" fill="none" stroke="#ffffff" stroke-width="6.000000"/>
    <g display="none"><rect width="10" height="10"/></g>
  </g>
</svg>
`;
