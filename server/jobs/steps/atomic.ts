import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { TextLine } from "../../../api/storyboard";
import { writeVtt } from "../../speech/subtitle-files";

/**
 * Writes to a temporary name of this attempt's own and renames, so a crash never leaves half a file
 * under the real key and two writers (a killed server's orphan and the retry) never share a file.
 * The output is checked before it is moved into place: nothing corrupt is ever marked ready.
 */
export async function atomically(target: string, write: (tmp: string) => Promise<void>, verify: (tmp: string) => Promise<void>) {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const tmp = partName(target);
  try {
    await write(tmp);
    await verify(tmp);
    await fs.rename(tmp, target);
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** The same for a folder of outputs (thumbnails): made whole under its own name, then put in the old one's place. */
export async function atomicFolder<T>(target: string, write: (tmpDir: string) => Promise<T>): Promise<T> {
  const tmp = partName(target, ".d");
  try {
    await fs.mkdir(tmp, { recursive: true });
    const result = await write(tmp);
    await fs.rm(target, { recursive: true, force: true });
    await fs.rename(tmp, target);
    return result;
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** A render's WebVTT track, written whole under a name of its own and renamed into place. */
export async function writeTrack(target: string, lines: readonly TextLine[]) {
  const tmp = partName(target);
  try {
    await fs.writeFile(tmp, writeVtt(lines), "utf8");
    await fs.rename(tmp, target);
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** `proxy.mp4` → `proxy.mp4.1a2b3c4d.part.mp4`: this attempt's own name, which the start-up sweep knows (leftovers.ts). */
export function partName(target: string, extension = path.extname(target)): string {
  return `${target}.${randomBytes(4).toString("hex")}.part${extension}`;
}
