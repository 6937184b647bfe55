import { describe, expect, it } from "vitest";
import { checkSteps, runSteps, type Step } from "../../server/jobs/steps/step";
import { MEDIA_STEPS, PROJECT_STEPS, RENDER_STEPS, SUBTITLE_STEPS } from "../../server/jobs/pipeline";

interface State {
  made: Set<string>;
  ran: string[];
}

const step = (name: string, weight: number, reads: string[] = []): Step<State> => ({
  name,
  reads,
  writes: [name],
  weight,
  done: (s) => s.made.has(name),
  async run(s, progress) {
    s.ran.push(name);
    await progress(0.5);
    s.made.add(name);
  },
});

describe("pipeline steps (issue 14)", () => {
  it("skips the steps whose outputs exist and shares the progress out by weight", async () => {
    const steps = checkSteps([step("a", 1), step("b", 3, ["a"]), step("c", 0, ["b"])], []);
    const state: State = { made: new Set(["a"]), ran: [] };
    const seen: number[] = [];
    await runSteps(steps, state, async (f) => void seen.push(f));
    expect(state.ran).toEqual(["b", "c"]);
    // a skipped (its quarter at once), b halfway (0.25 + 0.375), b done, c (weight 0) adds nothing.
    expect(seen).toEqual([0.25, 0.625, 1, 1, 1]);
    // Run again, as after a crash once everything was made: nothing runs.
    state.ran = [];
    await runSteps(steps, state);
    expect(state.ran).toEqual([]);
  });

  it("refuses a sequence whose step reads what no earlier step writes, or two steps of one name", () => {
    expect(() => checkSteps([step("b", 1, ["a"]), step("a", 1)], [])).toThrow(/step b reads a/);
    expect(() => checkSteps([step("a", 1), step("a", 1)], [])).toThrow(/two steps named a/);
  });

  it("puts the server's own sequences together in an order that holds", () => {
    expect(MEDIA_STEPS.map((s) => s.name)).toEqual(["probe", "proxy", "thumbnails", "speech analysis", "waveform", "faces"]);
    expect(PROJECT_STEPS.map((s) => s.name)).toEqual(["media files", "storyboard", "render"]);
    expect(SUBTITLE_STEPS.map((s) => s.name)).toEqual(["transcribe", "subtitle lines"]);
    expect(RENDER_STEPS.map((s) => s.name)).toEqual(["render"]);
  });
});
