import { updateMedia } from "../../db/media";
import { storedMediaInfo } from "../render-edit";
import type { MediaState } from "./media";
import type { Step } from "./step";

/** Reads the stored file's streams (cheap, and every later step needs them, so it always runs). */
export const probeStep: Step<MediaState> = {
  name: "probe",
  reads: ["media.storage_key"],
  writes: ["info", "media.container"],
  weight: 0,
  done: () => false,
  async run(state) {
    const info = await storedMediaInfo(state.source, state.media, { signal: state.ctx.signal });
    // A file stored before its container was kept gets it now; every later run names it.
    if (!state.media.container) await updateMedia(state.deps.db, state.media.id, { container: info.container });
    state.info = info;
  },
};
