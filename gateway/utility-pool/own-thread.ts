// The thread of an ownThread utility (spell_check): builds its heavy state once (warmUp, outside
// any run's time limit), then serves runs exactly as a pool thread does. The pool counts the
// thread as loaded, and the utility as available, only from then on.
import { utilityById } from "../../utilities/index.ts";

const id = new URL(import.meta.url).searchParams.get("utility") ?? "";
const utility = utilityById(id);
if (!utility?.ownThread) throw new Error(`no own-thread utility ${id}`);
await utility.warmUp?.();
await import(import.meta.url.split("?")[0]?.endsWith(".ts") ? "./utility-thread.ts" : "./utility-thread.js");
