/**
 * Hostile and odd media files, made at run time with ffmpeg and node (nothing binary is committed).
 * Everything is asynchronous: the suites run the server in the same process, and a blocking
 * generator would stall the very server whose answers they time.
 */
import { execFile } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import { promisify } from "node:util";
import zlib from "node:zlib";

const run = promisify(execFile);

/** ffmpeg quietly, overwriting. */
export async function ffmpeg(args: string[]): Promise<void> {
  await run("ffmpeg", ["-nostdin", "-hide_banner", "-v", "error", "-y", ...args], { maxBuffer: 16 * 1024 * 1024 });
}

/** Lavfi test picture and tone, `seconds` long, small. */
export const testPicture = (seconds: number, size = "160x120", rate = 15) => ["-f", "lavfi", "-i", `testsrc=s=${size}:d=${seconds}:r=${rate}`];
export const testTone = (seconds: number, rate = 44100) => ["-f", "lavfi", "-i", `sine=f=440:d=${seconds}:sample_rate=${rate}`];

/** An HLS playlist naming one file (relative or absolute): what `holiday.mp4` held in the probe's report. */
export function hlsPlaylist(target: string, seconds = 10): string {
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:${Math.ceil(seconds)}\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:${seconds.toFixed(1)},\n${target}\n#EXT-X-ENDLIST\n`;
}

/** An ffconcat list naming one file. */
export function ffconcatList(target: string): string {
  return `ffconcat version 1.0\nfile '${target.replace(/'/g, "'\\''")}'\n`;
}

/**
 * The issue's lying MP3: 3 s at 320 kb/s, then `hours` at 8 kb/s, no Xing header. Its header
 * estimate is taken from the first frames' rate (~7.5 min for 5 h).
 */
export async function lyingMp3(file: string, dir: string, hours = 5): Promise<void> {
  const loud = `${dir}/lying-head.mp3`;
  const quiet = `${dir}/lying-tail.mp3`;
  await ffmpeg([...testTone(3), "-c:a", "libmp3lame", "-b:a", "320k", "-write_xing", "0", "-id3v2_version", "0", loud]);
  // Ten minutes of the quiet part, repeated: MP3 frames join byte for byte.
  await ffmpeg(["-f", "lavfi", "-i", "sine=f=300:d=600:sample_rate=8000", "-c:a", "libmp3lame", "-b:a", "8k", "-ar", "8000", "-write_xing", "0", "-id3v2_version", "0", quiet]);
  const tail = await fs.promises.readFile(quiet);
  const out = fs.createWriteStream(file);
  out.write(await fs.promises.readFile(loud));
  for (let i = 0; i < hours * 6; i++) if (!out.write(tail)) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

/** A PNG declaring `width`×`height` 8-bit grey pixels, all black: tiny on disk, huge once decoded. */
export async function hugePng(file: string, width: number, height: number): Promise<void> {
  const crc = (buf: Buffer) => zlib.crc32(buf);
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (b: Buffer) => parts.push(b));
  const row = Buffer.alloc(width + 1);
  for (let y = 0; y < height; y++) if (!deflate.write(row)) await once(deflate, "drain");
  deflate.end();
  await once(deflate, "end");
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  await fs.promises.writeFile(file, Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", Buffer.concat(parts)), chunk("IEND", Buffer.alloc(0))]));
}
