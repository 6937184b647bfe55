import { analyzeFile, NoAudioStreamError } from "../../media/analyze";
import { infoOf, type MediaState } from "./media";
import type { Step } from "./step";

/** Where a spoken file's speech is (and its room's noise floor): what the storyboard's silence cuts are made from. */
export const speechAnalysisStep: Step<MediaState> = {
  name: "speech analysis",
  reads: ["media.storage_key", "info"],
  writes: ["analysis.speech", "analysis.noiseFloorDb"],
  weight: 20,
  done(state) {
    const { media, analysis } = state;
    return media.kind === "image" || !media.has_speech || !infoOf(state).hasAudio || analysis.noiseFloorDb !== null;
  },
  async run(state) {
    try {
      const result = await analyzeFile(state.source, { info: infoOf(state), signal: state.ctx.signal });
      state.analysis.speech = result.speech;
      state.analysis.noiseFloorDb = result.noiseFloorDb;
    } catch (error) {
      if (!(error instanceof NoAudioStreamError)) throw error;
    }
  },
};
