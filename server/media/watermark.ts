import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FfmpegInput } from "./ffmpeg";

/**
 * The free plan's watermark (SPEC §6): Cutroom's logo in the bottom-right corner on a semi-transparent
 * dark plate, so it stays legible on dark and light footage alike. The logo is our own square PNG.
 */
export const WATERMARK_LOGO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../public/icons/icon-192.png");

/** Shares of the frame's short side: the logo's height, the plate's border around it, the plate's distance from the edges. */
export const WATERMARK_LOGO_SHARE = 0.08;
export const WATERMARK_PADDING_SHARE = 0.02;
export const WATERMARK_MARGIN_SHARE = 0.03;
/** How dark the plate is (0 transparent, 1 black). */
export const WATERMARK_PLATE_OPACITY = 0.55;

/** Where the plate sits on a width × height frame, in pixels (the logo is centred in it). */
export function watermarkBox(width: number, height: number): { x: number; y: number; size: number; logo: number; padding: number } {
  const short = Math.min(width, height);
  const logo = Math.max(16, 2 * Math.round((short * WATERMARK_LOGO_SHARE) / 2));
  const padding = Math.max(2, Math.round(short * WATERMARK_PADDING_SHARE));
  const margin = Math.max(2, Math.round(short * WATERMARK_MARGIN_SHARE));
  const size = logo + 2 * padding;
  return { x: width - margin - size, y: height - margin - size, size, logo, padding };
}

/** The logo as an ffmpeg input: our own file, read as a PNG whatever its name. */
export function watermarkInput(file: string): FfmpegInput {
  return { file, format: "png_pipe", internal: true };
}

/** `[below]` with the plate and the logo of input `k` on it, as `[output]`. */
export function watermarkChains(k: number, below: string, output: string, width: number, height: number): string[] {
  const box = watermarkBox(width, height);
  return [
    `[${below}]drawbox=x=${box.x}:y=${box.y}:w=${box.size}:h=${box.size}:color=black@${WATERMARK_PLATE_OPACITY}:t=fill[wmplate]`,
    `[${k}:v:0]scale=${box.logo}:${box.logo},format=rgba[wmlogo]`,
    `[wmplate][wmlogo]overlay=x=${box.x + box.padding}:y=${box.y + box.padding}:eof_action=repeat,format=yuv420p[${output}]`,
  ];
}
