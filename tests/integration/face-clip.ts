/**
 * Issue 17: clips with a real face moving across the frame, for the face-detection tests and `npm run bench:faces`.
 * The face is NASA's portrait of Eileen Collins (public domain), as scikit-image ships it and Debian packages it
 * (python3-skimage: /usr/lib/python3/dist-packages/skimage/data/astronaut.png, 512×512). ffmpeg scales it and moves
 * it over a plain background along a path, so where the face is at every frame is known exactly.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { pathExpression, windowAt, type CropKey } from "../../server/domain/faces";
import type { Rect } from "../../server/domain/framing";

export const FACE_PHOTO = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png";
const PHOTO_SIZE = 512;
/** The face in the photo (forehead to chin, ear to ear), in its pixels. */
const FACE_IN_PHOTO = { x: 165, y: 55, w: 125, h: 130 };

export class MissingFacePhotoError extends Error {
  constructor() {
    super(`${FACE_PHOTO} is missing: apt-get install -y --no-install-recommends python3-skimage`);
  }
}

export function requireFacePhoto(): void {
  if (!fs.existsSync(FACE_PHOTO)) throw new MissingFacePhotoError();
}

export interface FaceClip {
  width: number;
  height: number;
  seconds: number;
  /** The photo's size in the clip (px). */
  photo: number;
  /** Where the photo's top-left corner is (px), linear between keys; t in seconds. */
  path: CropKey[];
  fps?: number;
  background?: string;
  /** A second, still face: the photo at this size (px) with its corner here. */
  second?: { photo: number; x: number; y: number };
}

/** Writes the clip as H.264 with a quiet tone (a video with sound, as uploads are). */
export function makeFaceClip(output: string, clip: FaceClip): void {
  requireFacePhoto();
  const fps = clip.fps ?? 25;
  const x = pathExpression(clip.path, "x", "1");
  const y = pathExpression(clip.path, "y", "1");
  const moving = `[0:v]scale=${clip.photo}:${clip.photo}[face];[1:v][face]overlay=x='${x}':y='${y}':eval=frame:shortest=1`;
  const graph = clip.second
    ? `[0:v]split[a][b];[a]scale=${clip.photo}:${clip.photo}[face];[b]scale=${clip.second.photo}:${clip.second.photo}[other];[1:v][other]overlay=x=${clip.second.x}:y=${clip.second.y}:shortest=1[bg];[bg][face]overlay=x='${x}':y='${y}':eval=frame:shortest=1,format=yuv420p[v]`
    : `${moving},format=yuv420p[v]`;
  execFileSync("ffmpeg", [
    "-nostdin", "-v", "error", "-y",
    "-loop", "1", "-framerate", String(fps), "-i", FACE_PHOTO,
    "-f", "lavfi", "-i", `color=c=${clip.background ?? "0x5a6b7c"}:s=${clip.width}x${clip.height}:r=${fps}:d=${clip.seconds}`,
    "-f", "lavfi", "-i", `sine=frequency=220:sample_rate=48000:duration=${clip.seconds}`,
    "-filter_complex", graph, "-map", "[v]", "-map", "2:a",
    "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-g", String(fps * 2), "-c:a", "aac", "-b:a", "64k", "-t", String(clip.seconds), output,
  ]);
}

/** The face's box at `t`, in fractions of the frame. */
export function faceAt(clip: FaceClip, t: number): Rect {
  const at = windowAt(clip.path, t);
  const scale = clip.photo / PHOTO_SIZE;
  return {
    x: (at.x + FACE_IN_PHOTO.x * scale) / clip.width,
    y: (at.y + FACE_IN_PHOTO.y * scale) / clip.height,
    w: (FACE_IN_PHOTO.w * scale) / clip.width,
    h: (FACE_IN_PHOTO.h * scale) / clip.height,
  };
}

/** A seeded random number generator (mulberry32), so a bench run is the same each time. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
