// A thread that parses uploads, one at a time, or decodes their base64 text (gateway/imports/import-parser.ts starts it with a
// heap limit): it reads each file it is sent and posts the facts back in slices (so the serving
// thread takes them in small turns between other requests), then the file's summary.
import { parentPort } from "node:worker_threads";
import { emptyFacts, ImportFormatError, parseImport, type ImportFacts, type ParseOptions } from "../../analyzer/index.ts";
import { decodeBase64InPlace } from "./base64-text.ts";
import { FACT_LISTS, FACTS_PER_MESSAGE, type DecodeReply, type DecodeRequest, type ParseReply, type ParseRequest } from "./import-messages.ts";

const port = parentPort;
if (!port) throw new Error("import-thread runs as a worker thread");

port.on("message", (req: ParseRequest | DecodeRequest) => {
  if ("decode" in req) return decode(req);
  void parse(req).catch((err: unknown) => {
    const reply: ParseReply = err instanceof ImportFormatError ? { refused: err.message } : { fault: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    port.postMessage(reply);
  });
});

async function parse(req: ParseRequest): Promise<void> {
  const options: ParseOptions = { limits: req.limits, ...(req.provider ? { provider: req.provider } : {}), ...(req.kind ? { kind: req.kind } : {}) };
  const { facts, provider, kind, formats } = await parseImport(new Uint8Array(req.bytes, req.byteOffset, req.byteLength), req.fileName, options);
  for (const list of FACT_LISTS) {
    const rows = facts[list] as unknown[];
    for (let at = 0; at < rows.length; at += FACTS_PER_MESSAGE) port!.postMessage({ list, rows: rows.slice(at, at + FACTS_PER_MESSAGE) } satisfies ParseReply);
    // What was sent is the serving thread's now: let this copy go while the next list is sliced.
    (facts as { -readonly [K in keyof ImportFacts]: ImportFacts[K] })[list] = emptyFacts()[list] as never;
  }
  const { warnings, filters, truncated, periodStart, periodEnd } = facts;
  port!.postMessage({ done: { provider, kind, formats, warnings, filters, truncated, periodStart, periodEnd } } satisfies ParseReply);
}

/** Decodes a body's base64 string in the body's own memory and moves that memory back. */
function decode({ decode: { bytes, start, end } }: DecodeRequest): void {
  let reply: DecodeReply;
  try {
    const at = decodeBase64InPlace(Buffer.from(bytes), start, end);
    reply = at ? { decoded: { bytes, ...at } } : { refused: "must be base64-encoded" };
  } catch (err) {
    reply = { fault: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  port!.postMessage(reply, "decoded" in reply ? [bytes] : []);
}
