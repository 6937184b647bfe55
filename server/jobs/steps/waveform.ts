import { storedWaveform, waveformKey } from "../../services/waveform";
import { infoOf, type MediaState } from "./media";
import type { Step } from "./step";

/**
 * The peaks of a file's sound (`waveform.json`, 50 a second) for the trim and split dialogs (issue 14), measured
 * from the proxy once it exists, so the first dialog opened does not wait for them. Files without sound have none.
 */
export const waveformStep: Step<MediaState> = {
  name: "waveform",
  reads: ["info", "proxy.mp4"],
  writes: ["waveform.json"],
  weight: 4,
  async done(state) {
    const { media, deps } = state;
    return media.kind === "image" || !infoOf(state).hasAudio || (await deps.store.exists(waveformKey(media)));
  },
  async run(state) {
    try {
      await storedWaveform(state.deps.store, state.media, state.ctx.signal);
    } catch (error) {
      // Only the dialogs' picture is missing: the file is ready all the same, and its first request tries again.
      if (state.ctx.signal?.aborted) throw error;
      state.deps.log.warn({ err: error, mediaId: state.media.id }, "waveform: could not measure the file's peaks");
    }
  },
};
