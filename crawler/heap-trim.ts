// A full garbage collection on request, to give back the heap a large job grew. V8 sizes its heap
// by the peak it saw and keeps those pages committed while the process idles (measured: the main
// thread's heap at 384 MB ten seconds after a 100,000-page crawl, 80 MB before it), so a process
// that just finished a crawl-sized job asks for one collection once the job is settled.
//
// The collection is V8's `gc`, exposed by `--expose-gc` at start: the launchers pass it (the image's
// entrypoint, the Helm chart's command, `npm start`; docs/operations.md, Memory), and worker threads
// inherit it. A process started without it (`node bin/svc.js` by hand) gets there another way:
// the flag set at run time (v8.setFlagsFromString, which V8 applies to contexts made after it) and
// `gc` taken from a fresh context. That works on Node 20 but rests on V8 behaviour Node does not
// document (setting flags after start "is undefined behaviour"), hence only the fallback.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Pages of a crawl after which the node runs full garbage collections (before its analysis and once the job is done). */
export const TRIM_AFTER_CRAWL_OF = 5000;

let collect: (() => void) | null | undefined;

/** V8's `gc`: the one exposed at start, else taken at run time (see above); null where neither works. */
function gcFunction(): (() => void) | null {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") return exposed as () => void;
  try {
    setFlagsFromString("--expose-gc");
    const taken = runInNewContext("gc") as unknown;
    return typeof taken === "function" ? (taken as () => void) : null;
  } catch {
    return null;
  }
}

/** Runs full, synchronous collections until the heap a job grew is given back; false where the runtime does not allow it. */
export function collectGarbage(): boolean {
  if (collect === undefined) collect = gcFunction();
  if (!collect) return false;
  // Without options: a full, synchronous collection. Twice: the first frees the objects but
  // leaves the pages that still hold a few live ones (fragmented) committed; the second moves
  // those few out and lets the pages go (measured: heap committed 108 MB after one, 39 after two,
  // of 119 grown, 7 live).
  collect();
  collect();
  return true;
}
