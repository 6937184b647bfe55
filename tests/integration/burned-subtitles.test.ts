/**
 * Issue 14, burned-in subtitles: the render draws the lines onto the picture with the Options' text, border and
 * shadow colours (libass through our own ASS file), in renders made in chunks and in aspect-cropped outputs too;
 * smart render copies nothing then; and through the server, render_subtitle burns the lines into the final
 * render while a preview render stays clean (its player shows them as a track).
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPreview, runFfmpeg, streamFfmpeg, type EditSegment, type RenderPath } from "../../server/media";
import type { BurnStyle } from "../../server/media/burned-subtitles";
import { jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";

const W = 640;
const H = 360;
const YELLOW_ON_RED: BurnStyle = { color: "#ffd400", border_color: "#e53935", shadow_color: "#1e88e5", dropshadow: 1 };
const BLUE_ON_WHITE: BurnStyle = { color: "#1e88e5", border_color: "#ffffff", shadow_color: "#000000", dropshadow: 0 };

interface Frame {
  rgb: Buffer;
  width: number;
  height: number;
}

async function frameAt(file: string, seconds: number, width: number, height: number): Promise<Frame> {
  const run = streamFfmpeg({ inputs: [{ file, options: ["-ss", String(seconds)] }], outputOptions: ["-map", "0:v:0", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24"], output: "-" });
  const chunks: Buffer[] = [];
  for await (const chunk of run.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await run.done;
  const rgb = Buffer.concat(chunks);
  expect(rgb.length).toBe(width * height * 3);
  return { rgb, width, height };
}

type Test = (r: number, g: number, b: number) => boolean;
const yellow: Test = (r, g, b) => r > 200 && g > 160 && b < 90;
const red: Test = (r, g, b) => r > 170 && g < 100 && b < 100;
const blue: Test = (r, g, b) => b > 170 && r < 90 && g > 100 && g < 170;
const white: Test = (r, g, b) => r > 220 && g > 220 && b > 220;

/** Pixels passing `test` in rows [y0, y1), and the columns they span. */
function count(frame: Frame, test: Test, y0 = 0, y1 = frame.height): { n: number; minX: number; maxX: number } {
  let n = 0;
  let minX = Infinity;
  let maxX = -Infinity;
  for (let y = y0; y < y1; y++) {
    for (let x = 0; x < frame.width; x++) {
      const i = (y * frame.width + x) * 3;
      if (test(frame.rgb[i]!, frame.rgb[i + 1]!, frame.rgb[i + 2]!)) {
        n++;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
      }
    }
  }
  return { n, minX, maxX };
}

describe("burned-in subtitles in the render", () => {
  let dir: string;
  let source: string;
  let second: string;

  /** A moving test picture over a plain dark lower half, a keyframe every half second (smart render can copy it), and a tone. */
  async function makeClip(file: string, colour: string) {
    await runFfmpeg({
      inputs: [
        { file: `testsrc2=size=${W}x${H}:rate=30,drawbox=x=0:y=${H / 2}:w=${W}:h=${H / 2}:color=${colour}:t=fill`, lavfi: true, options: ["-t", "6"] },
        { file: "sine=frequency=300:sample_rate=48000", lavfi: true, options: ["-t", "6"] },
      ],
      outputOptions: ["-c:v", "libx264", "-preset", "veryfast", "-g", "15", "-keyint_min", "15", "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"],
      output: file,
    });
  }

  beforeAll(async () => {
    // Our scratch folder path has every character the filter graph treats specially.
    dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-burn-"));
    source = path.join(dir, "grey.mp4");
    second = path.join(dir, "darker.mp4");
    await Promise.all([makeClip(source, "0x404040"), makeClip(second, "0x303030")]);
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A cut at 2 s (the edit is 4.5 s long): smart render copies most of it when nothing is burned in. */
  const cut: EditSegment[] = [
    { file: "", kind: "video", start: 0.5, end: 2.5 },
    { file: "", kind: "video", start: 3, end: 5.5 },
  ];
  const lines = [{ start: 1, end: 3, text: "Burned in, with colour" }];

  it("draws the lines low in the picture in the Options' colours, only while they play, and never smart-copies", async () => {
    const segments = cut.map((s) => ({ ...s, file: source }));
    const paths: RenderPath[] = [];
    const scratchParent = path.join(dir, "it's: a [weird], dir; really");
    await mkdir(scratchParent, { recursive: true });
    const plain = path.join(dir, "plain.mp4");
    const burned = path.join(dir, "burned.mp4");
    const blueOut = path.join(dir, "blue.mp4");
    await renderPreview(segments, plain, { smart: true, onRenderPath: (p) => paths.push(p) });
    await renderPreview(segments, burned, { smart: true, scratchParent, onRenderPath: (p) => paths.push(p), subtitles: { lines, style: YELLOW_ON_RED } });
    await renderPreview(segments, blueOut, { scratchParent, subtitles: { lines, style: BLUE_ON_WHITE } });
    // The same clip is copied when nothing is burned in, and rendered in full when something is.
    expect(paths.map((p) => p.path), JSON.stringify(paths)).toEqual(["smart", "full"]);
    expect(paths[1]?.reason).toMatch(/subtitles/);

    const before = await frameAt(plain, 2, W, H);
    const during = await frameAt(burned, 2, W, H);
    const after = await frameAt(burned, 3.8, W, H);
    const inBlue = await frameAt(blueOut, 2, W, H);
    // Without burn-in: no text colour in the plain lower half (the upper half is a moving test picture).
    for (const test of [yellow, red, blue, white]) expect(count(before, test, H / 2, H).n).toBe(0);
    // Yellow text with a red border and a blue shadow, all in the lower quarter, centred, inside the side margins.
    const text = count(during, yellow, (3 * H) / 4, H);
    expect(text.n).toBeGreaterThan(300);
    expect(count(during, yellow, H / 2, (3 * H) / 4).n).toBe(0);
    expect(count(during, red, (3 * H) / 4, H).n).toBeGreaterThan(100);
    expect(count(during, blue, (3 * H) / 4, H).n).toBeGreaterThan(50);
    expect(Math.abs((text.minX + text.maxX) / 2 - W / 2)).toBeLessThan(W * 0.05);
    expect(text.minX).toBeGreaterThan(W * 0.05);
    // The bottom margin keeps the text off the last rows.
    expect(count(during, yellow, H - Math.round(H * 0.05), H).n).toBe(0);
    // After the line's end: gone.
    expect(count(after, yellow, H / 2, H).n).toBe(0);
    // Other Options, other colours: blue text, white border, no yellow.
    expect(count(inBlue, blue, (3 * H) / 4, H).n).toBeGreaterThan(300);
    expect(count(inBlue, white, (3 * H) / 4, H).n).toBeGreaterThan(100);
    expect(count(inBlue, yellow, H / 2, H).n).toBe(0);
  }, 120_000);

  it("burns each chunk of a long render on the render's clock, and fits a cropped portrait output", async () => {
    // Two files, one input per pass: two chunks joined at 2 s; the line spans the join.
    const chunked = path.join(dir, "chunked.mp4");
    const result = await renderPreview(
      [
        { file: source, kind: "video", start: 0, end: 2 },
        { file: second, kind: "video", start: 0, end: 2 },
      ],
      chunked,
      { maxInputsPerPass: 1, subtitles: { lines: [{ start: 1.5, end: 3, text: "Across the join" }], style: YELLOW_ON_RED } },
    );
    expect(result.chunks).toBe(2);
    expect(count(await frameAt(chunked, 1, W, H), yellow, H / 2, H).n).toBe(0);
    expect(count(await frameAt(chunked, 1.75, W, H), yellow, H / 2, H).n).toBeGreaterThan(200);
    expect(count(await frameAt(chunked, 2.5, W, H), yellow, H / 2, H).n).toBeGreaterThan(200);
    expect(count(await frameAt(chunked, 3.5, W, H), yellow, H / 2, H).n).toBe(0);

    // 9:16 from a 16:9 source: a 35-character line wraps inside the narrow frame.
    const portrait = path.join(dir, "portrait.mp4");
    const cropped = await renderPreview([{ file: source, kind: "video", start: 0, end: 4, crop: { x: 0.34, y: 0, w: 0.32, h: 1 } }], portrait, {
      aspect: 9 / 16,
      subtitles: { lines: [{ start: 1, end: 3, text: "Thirty five characters in this one" }], style: YELLOW_ON_RED },
    });
    expect(cropped.width).toBeLessThan(cropped.height);
    const frame = await frameAt(portrait, 2, cropped.width, cropped.height);
    const text = count(frame, yellow, cropped.height / 2, cropped.height);
    expect(text.n).toBeGreaterThan(150);
    expect(text.minX).toBeGreaterThan(0);
    expect(text.maxX).toBeLessThan(cropped.width - 1);
  }, 120_000);
});

describe("render_subtitle through the server", () => {
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer();
    base = await listen(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("burns the project's lines into the final render in the Options' colours; the preview render stays clean", async () => {
    const { token, email } = await server.signUp();
    // A paid plan: no watermark in the corner.
    await server.db.updateTable("users").set({ plan_id: "standard_month" }).where("email", "=", email).execute();
    const api = jsonApi(() => base, () => token);
    const id = await processedTalkProject(base, token, "Burn in");
    const scene = await server.db
      .selectFrom("scenes")
      .select(["id", "trim_start", "trim_end"])
      .where("project_id", "=", id)
      .where("parent_scene_id", "is", null)
      .where("visibility", "=", 1)
      .orderBy("order")
      .executeTakeFirstOrThrow();
    const end = Math.min(scene.trim_end, scene.trim_start + 2.2);
    expect(end - scene.trim_start).toBeGreaterThan(0.6);
    expect((await api("PUT", `/scenes/${scene.id}`, { text: [{ start: scene.trim_start + 0.1, end, text: "Burned in words" }] })).status).toBe(200);
    const font = { color: "#ffd400", border_color: "#e53935", shadow_color: "#1e88e5", dropshadow: 1, locale: null };
    const updated = await api("PUT", `/projects/${id}`, { render_subtitle: 1, font });
    expect(updated.status).toBe(200);
    expect(updated.body.font).toEqual(font);
    expect(updated.body.needs_render).toBe(1);
    // A colour that is not one is refused.
    expect((await api("PUT", `/projects/${id}`, { font: { ...font, shadow_color: "blue;x" } })).status).toBe(422);
    const middle = (0.1 + (end - scene.trim_start)) / 2;

    const rendered = async (final: boolean) => {
      expect((await api("POST", `/projects/${id}/render`, { final })).status).toBe(200);
      const row = await waitFor(async () => {
        const r = await server.db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
        if (r.status === "Failed") throw new Error(`render failed: ${r.failure}`);
        return r.status === (final ? "Render Ready" : "Preview Ready") && !r.is_queued ? r : undefined;
      }, 180_000);
      const file = path.join(server.config.storeDir, row.export_key!);
      return frameAt(file, middle, row.export_width!, row.export_height!);
    };
    const preview = await rendered(false);
    // The preview's player gets the lines as a track instead.
    expect((await api("GET", `/projects/${id}`)).body.subtitles_track_url).toBeTruthy();
    const final = await rendered(true);
    // The talk is colour bars: count the pixels the final render turned yellow (text) or red (border) that the
    // preview did not have — none if both were burned in or neither was — and none in the upper half.
    expect(final.width).toBe(preview.width);
    const turned = (test: Test, y0: number, y1: number) => {
      let n = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = 0; x < final.width; x++) {
          const i = (y * final.width + x) * 3;
          const [a, b] = [final.rgb, preview.rgb].map((rgb) => test(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!));
          if (a && !b) n++;
        }
      }
      return n;
    };
    const half = Math.round(final.height / 2);
    expect(turned(yellow, half, final.height)).toBeGreaterThan(80);
    expect(turned(red, half, final.height)).toBeGreaterThan(30);
    expect(turned(yellow, 0, half)).toBe(0);
  }, 300_000);
});
