// windows-1251 (the Cyrillic code page of older Russian sites and 1C exports), both ways. The
// upper half of the table, 0x80..0xFF; the lower half is ASCII.
const HIGH =
  "ЂЃ‚ѓ„…†‡€‰Љ‹ЊЌЋЏђ‘’“”•–—\ufffd™љ›њќћџ\u00a0ЎўЈ¤Ґ¦§Ё©Є«¬\u00ad®Ї°±Ііґµ¶·ё№є»јЅѕї" +
  "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмнопрстуфхцчшщъыьэюя";

const TO_BYTE = new Map<string, number>([...HIGH].map((ch, i) => [ch, 0x80 + i]));

export function decodeCp1251(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b < 0x80 ? String.fromCharCode(b) : (HIGH[b - 0x80] as string);
  return out;
}

/** Characters outside the code page become "?", as browsers send them. */
export function encodeCp1251(text: string): Buffer {
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    out.push(code < 0x80 ? code : (TO_BYTE.get(ch) ?? 0x3f));
  }
  return Buffer.from(out);
}
