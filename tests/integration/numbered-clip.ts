import { runFfmpeg, streamFfmpeg } from "../../server/media";

/** Grey levels per frame number in the numbered clip; the number wraps every 256 / step frames. */
export const LEVEL_STEP = 8;
export const NUMBERS = 256 / LEVEL_STEP;

/** A 6-second clip whose every frame is one flat grey encoding its frame number, with a steady tone. */
export async function makeNumberedClip(file: string, fps: number): Promise<void> {
  await runFfmpeg({
    inputs: [
      { file: `color=size=64x48:rate=${fps},geq=lum='mod(N*${LEVEL_STEP},256)':cb=128:cr=128`, lavfi: true, options: ["-t", "6"] },
      { file: "sine=frequency=300:sample_rate=48000", lavfi: true, options: ["-t", "6"] },
    ],
    outputOptions: ["-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"],
    output: file,
  });
}

/** The frame numbers a render shows, read back from each frame's grey level. */
export async function frameNumbers(file: string): Promise<number[]> {
  const run = streamFfmpeg({ inputs: [{ file }], outputOptions: ["-map", "0:v:0", "-vf", "extractplanes=y,scale=1:1", "-f", "rawvideo", "-pix_fmt", "gray"], output: "-" });
  const chunks: Buffer[] = [];
  for await (const chunk of run.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await run.done;
  return [...Buffer.concat(chunks)].map((level) => Math.round(level / LEVEL_STEP) % NUMBERS);
}
