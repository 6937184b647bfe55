import type { FfmpegInput } from "./ffmpeg";
import { even, type PlannedOverlay, type RenderPlan } from "./render-plan";

/** A picture-in-picture is a third of the output's width, this far (a share of the width) from its corner. */
export const PIP_WIDTH_SHARE = 1 / 3;
export const PIP_MARGIN_SHARE = 0.02;
/** An overlay with fade on fades in and out over this long. */
export const OVERLAY_FADE_SECONDS = 0.3;

const READ_SLACK_SECONDS = 0.1;

export function overlayInput(overlay: PlannedOverlay, plan: RenderPlan, decoderThreads: readonly string[]): FfmpegInput {
  if (overlay.kind === "image") return { file: overlay.file, options: [...decoderThreads] };
  // Only its picture: an overlay's sound is never mixed in.
  return { file: overlay.file, options: [...decoderThreads, "-an", "-ss", fixed(overlay.start), "-t", fixed(overlay.frames / plan.fps + READ_SLACK_SECONDS)] };
}

/**
 * Each overlay, placed and timed on the output's frame clock, composited over the main picture in
 * turn. Before its first frame and after its last, the main picture passes through untouched.
 */
export function overlayChains(overlays: readonly PlannedOverlay[], firstInput: number, base: string, output: string, plan: RenderPlan): string[] {
  if (overlays.length === 0) return [];
  const chains: string[] = [];
  let below = base;
  overlays.forEach((overlay, j) => {
    const k = firstInput + j;
    const place = placement(overlay, plan);
    const frames = `trim=end_frame=${overlay.frames}`;
    const source =
      overlay.kind === "image"
        ? `[${k}:v:0]${place.picture},loop=loop=-1:size=1:start=0,${frames}`
        : `[${k}:v:0]fps=${plan.fps}:start_time=0,${frames},${place.picture}`;
    const above = `o${j}`;
    chains.push(`${source},${timing(overlay, plan)}[${above}]`);
    const out = j === overlays.length - 1 ? output : `vo${j}`;
    chains.push(`[${below}][${above}]overlay=x=${place.x}:y=${place.y}:eof_action=pass:format=yuv420[${out}]`);
    below = out;
  });
  return chains;
}

/**
 * Its frames on the output clock; a fade is timed on the whole overlay (a pass may show only part
 * of it), so the stream is first numbered from the overlay's own start.
 */
function timing(overlay: PlannedOverlay, plan: RenderPlan): string {
  const clock = `settb=1/${plan.fps}`;
  const place = `setpts=N+${overlay.fromFrame}`;
  if (!overlay.fade) return `${clock},${place}`;
  const fadeFrames = Math.min(Math.round(OVERLAY_FADE_SECONDS * plan.fps), Math.floor(overlay.totalFrames / 2));
  if (fadeFrames <= 0) return `${clock},${place}`;
  const d = fixed(fadeFrames / plan.fps);
  const outAt = fixed((overlay.totalFrames - fadeFrames) / plan.fps);
  return `${clock},setpts=N+${overlay.skipFrames},fade=t=in:st=0:d=${d}:alpha=1,fade=t=out:st=${outAt}:d=${d}:alpha=1,${place}`;
}

/**
 * SPEC §9 Overlay types: picture-in-picture in a corner, fitted inside the frame (fullscrn), or
 * filling it (autozoom). With the main scene hidden, the overlay comes on an opaque black frame.
 */
function placement(overlay: PlannedOverlay, plan: RenderPlan): { picture: string; x: string; y: string } {
  const { width: W, height: H } = plan;
  let scale: string;
  let x: (w: string) => string;
  let y: (h: string) => string;
  if (overlay.placement === "autozoom") {
    scale = `scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H}`;
    x = () => "0";
    y = () => "0";
  } else if (overlay.placement === "fullscrn") {
    scale = `scale=${W}:${H}:force_original_aspect_ratio=decrease:force_divisible_by=2`;
    x = (w) => `(${W}-${w})/2`;
    y = (h) => `(${H}-${h})/2`;
  } else {
    const margin = Math.round(PIP_MARGIN_SHARE * W);
    const left = overlay.placement === "pip_tl" || overlay.placement === "pip_bl";
    const top = overlay.placement === "pip_tl" || overlay.placement === "pip_tr";
    scale = `scale=${even(W * PIP_WIDTH_SHARE)}:-2`;
    x = (w) => (left ? `${margin}` : `${W}-${w}-${margin}`);
    y = (h) => (top ? `${margin}` : `${H}-${h}-${margin}`);
  }
  const picture = `${scale},setsar=1,format=yuva420p`;
  if (overlay.hideMain) return { picture: `${picture},pad=${W}:${H}:${x("iw")}:${y("ih")}:color=black`, x: "0", y: "0" };
  return { picture, x: x("w"), y: y("h") };
}

function fixed(seconds: number): string {
  return seconds.toFixed(6);
}
