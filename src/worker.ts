import * as Comlink from "comlink";
import type { Actions } from "../workers/actions";

/** The sync worker, typed from its actions. The one way views change data. */
export const worker = Comlink.wrap<Actions>(
  new Worker(new URL("../workers/sync.worker.ts", import.meta.url), { type: "module", name: "cutroom-sync" }),
);
