import { compact, facesOfRange, trackFaces } from "../../domain/faces";
import { detectFaces, FACE_DEFAULTS } from "../../media/faces";
import { runFfmpeg } from "../../media/ffmpeg";
import { verifyOutput } from "../../media/verify";
import { atomically } from "./atomic";
import { infoOf, outputKey, type MediaState } from "./media";
import type { Step } from "./step";

/** At most this many faces of a file get a picture (the most seen ones); the others can still be drawn by hand. */
export const MAX_FACE_THUMBS = 12;
/** A face's picture: its box widened by this much on each side, this many pixels high. */
const THUMB_PADDING = 0.25;
const THUMB_HEIGHT = 160;

/**
 * Issue 17: the faces of a video (`media_faces`: tracks over samples of the proxy, and a picture of each cut from
 * its frame under `faces/`), for the faces dialog's proposals and the framing that follows them. Images and
 * sounds have none; FACE_DETECTION=off skips it (framing centres as before, hand-drawn faces still work).
 */
export const facesStep: Step<MediaState> = {
  name: "faces",
  reads: ["info", "proxy.mp4"],
  writes: ["media_faces", "faces/"],
  weight: 10,
  async done({ media, deps }) {
    if (media.kind !== "video" || deps.faces?.enabled === false) return true;
    return !!(await deps.db.selectFrom("media_faces").select("media_file_id").where("media_file_id", "=", media.id).executeTakeFirst());
  },
  async run(state, progress) {
    const { deps, ctx, media } = state;
    const info = infoOf(state);
    if (!media.proxy_key || !info.width || !info.height) return;
    const proxy = deps.store.pathOf(media.proxy_key);
    const fps = deps.faces?.fps ?? FACE_DEFAULTS.fps;
    const samples = await detectFaces(proxy, {
      fps,
      workers: deps.faces?.workers,
      width: info.width,
      height: info.height,
      format: "mov",
      internal: true,
      signal: ctx.signal,
      onProgress: (seconds) => void progress(Math.min(0.9, seconds / Math.max(1, info.durationSeconds))).then(() => ctx.heartbeat()),
    });
    const tracks = trackFaces(samples);
    const thumbs: Record<string, string> = {};
    const best = facesOfRange(tracks, fps, 0, Number.POSITIVE_INFINITY).slice(0, MAX_FACE_THUMBS);
    for (const face of best) {
      const key = outputKey(media, `faces/${face.track}.jpg`);
      await atomically(
        deps.store.pathOf(key),
        (tmp) => cutFace(proxy, tmp, face.at, face.box, ctx.signal),
        (tmp) => verifyOutput(tmp, { format: "jpeg_pipe", video: true }, { signal: ctx.signal }),
      );
      thumbs[face.track] = key;
    }
    await deps.db
      .insertInto("media_faces")
      .values({ media_file_id: media.id, sample_fps: fps, tracks: JSON.stringify(compact(tracks)), thumbs: JSON.stringify(thumbs), created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("media_file_id").doUpdateSet({ sample_fps: fps, tracks: JSON.stringify(compact(tracks)), thumbs: JSON.stringify(thumbs) }))
      .execute();
  },
};

/** The face's picture: its frame at `at`, its box widened a little, as a small JPEG. */
async function cutFace(proxy: string, output: string, at: number, box: { x: number; y: number; w: number; h: number }, signal?: AbortSignal) {
  const x = Math.max(0, box.x - box.w * THUMB_PADDING);
  const y = Math.max(0, box.y - box.h * THUMB_PADDING);
  const w = Math.min(1 - x, box.w * (1 + 2 * THUMB_PADDING));
  const h = Math.min(1 - y, box.h * (1 + 2 * THUMB_PADDING));
  const crop = `crop=w=iw*${w.toFixed(4)}:h=ih*${h.toFixed(4)}:x=iw*${x.toFixed(4)}:y=ih*${y.toFixed(4)},scale=-2:${THUMB_HEIGHT}`;
  await runFfmpeg(
    { inputs: [{ file: proxy, format: "mov", internal: true, options: ["-ss", at.toFixed(3)] }], outputOptions: ["-map", "0:v:0", "-frames:v", "1", "-vf", crop, "-q:v", "4", "-f", "image2"], output },
    { threads: 1, signal },
  );
}
