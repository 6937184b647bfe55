/**
 * Builds Cutroom's background-music catalogue (`npm run music:build [-- --only slug,slug]`).
 *
 * For every spec in specs.ts: compose (seeded: same spec, same notes) → Standard MIDI file → fluidsynth
 * with FluidR3_GM (Debian: fluidsynth, fluid-soundfont-gm; MIT) → float WAV → cut after the reverb tail →
 * two-pass ffmpeg loudnorm to −20 LUFS / −3 dBTP (linear gain) → stereo Opus 48 kHz. Two tracks render at
 * a time. Writes music/<slug>.opus and music/catalogue.json; the MIDI and WAVs stay in .tmp/music-build.
 * The bitrate is the highest (≤ 64 kbps) that keeps the whole catalogue under 30 MB.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { compose, type Composition, type TrackSpec } from "./composer";
import { writeSmf } from "./midi";
import { SPECS } from "./specs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const OUT = path.join(ROOT, "music");
const WORK = path.join(ROOT, ".tmp", "music-build");
const SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2";
const TARGET_LUFS = -20;
const TARGET_TP = -3;
const BUDGET_BYTES = 30 * 1000 * 1000;
/** Seconds of reverb kept after the last chord's release (the MIDI has already faded by then). */
const TAIL_SECONDS = 2.5;
const PARALLEL = 2;
/** The 2–4 kHz band (speech intelligibility) must sit this far under the 250–2000 Hz body, in dB. */
const MIN_PRESENCE_GAP = 8;

function run(command: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${stderr.slice(-2000)}`));
    });
  });
}

export interface Loudness {
  integrated: number;
  truePeak: number;
  range: number;
}

/** Integrated loudness (LUFS), true peak (dBTP) and loudness range (LU) from ffmpeg's ebur128 summary. */
export async function measure(file: string): Promise<Loudness> {
  const { stderr } = await run("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", "ebur128=peak=true", "-f", "null", "-"]);
  const summary = stderr.slice(stderr.lastIndexOf("Summary:"));
  const grab = (re: RegExp) => {
    const m = re.exec(summary);
    if (!m?.[1]) throw new Error(`ebur128: no ${re} in ${summary}`);
    return Number(m[1]);
  };
  return {
    integrated: grab(/I:\s+(-?[\d.]+) LUFS/),
    range: grab(/LRA:\s+(-?[\d.]+) LU/),
    truePeak: grab(/True peak:\s+Peak:\s+(-?[\d.]+) dBFS/),
  };
}

/** RMS level (dBFS) of one frequency band of a file: how much of the music sits where speech does. */
async function bandRms(file: string, low: number, high: number): Promise<number> {
  const { stderr } = await run("ffmpeg", [
    "-hide_banner", "-nostats", "-i", file,
    "-af", `highpass=f=${low}:p=2,lowpass=f=${high}:p=2,astats=measure_overall=RMS_level:measure_perchannel=none`, "-f", "null", "-",
  ]);
  return Number(/RMS level dB: (-?[\d.]+)/.exec(stderr)?.[1]);
}

async function probeDurationMs(file: string): Promise<number> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", file]);
  return Math.round(Number(stdout.trim()) * 1000);
}

export interface CatalogueTrack {
  slug: string;
  title: string;
  author: string;
  licence: { id: string; attribution: string | null };
  genre_tags: string[];
  instrument_tags: string[];
  video_theme_tags: string[];
  file: string;
  duration_ms: number;
  loop: { start_ms: number; end_ms: number };
  energy: 1 | 2 | 3;
  tempo: number;
  loudness_lufs: number;
}

/** What the build checks and prints besides the catalogue: true peak (dBTP), loudness range (LU), presence gap (dB). */
const stats = new Map<string, { truePeak: number; range: number; presenceGap: number }>();

async function buildOne(spec: TrackSpec, composition: Composition, bitrate: number): Promise<CatalogueTrack> {
  const mid = path.join(WORK, `${spec.slug}.mid`);
  const wav = path.join(WORK, `${spec.slug}.wav`);
  const cut = path.join(WORK, `${spec.slug}.cut.wav`);
  const file = `${spec.slug}.opus`;
  const opus = path.join(OUT, file);
  fs.writeFileSync(mid, writeSmf(composition.tracks));
  // Float output: no clipping inside the synthesiser, whatever the gain; loudnorm sets the level.
  await run("fluidsynth", ["-ni", "-q", "-F", wav, "-O", "float", "-r", "48000", "-g", "0.6", SOUNDFONT, mid]);

  // Nothing is trimmed at the start, so bar times in the file are the composer's bar times.
  const length = composition.seconds + TAIL_SECONDS;
  const shape = `atrim=0:${length.toFixed(3)},afade=t=out:st=${(length - 2).toFixed(3)}:d=2`;
  await run("ffmpeg", ["-hide_banner", "-y", "-i", wav, "-af", shape, "-c:a", "pcm_f32le", cut]);

  const loudnorm = `loudnorm=I=${TARGET_LUFS}:TP=${TARGET_TP - 1}:LRA=50:print_format=json`;
  const analyse = async (file: string) => {
    const { stderr } = await run("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", loudnorm, "-f", "null", "-"]);
    return JSON.parse(stderr.slice(stderr.lastIndexOf("{"), stderr.lastIndexOf("}") + 1)) as Record<string, string>;
  };
  // A linear gain keeps the dynamics. If the peaks would then pass −3 dBTP (a piano's attack can), a
  // limiter with 1 dB to spare takes just those peaks first, so loudnorm can stay linear.
  const raw = await analyse(cut);
  const gain = TARGET_LUFS - Number(raw.input_i);
  // Opus adds up to ~1 dB of overshoot to true peaks: the WAV must stay 1.5 dB under the target.
  const over = Number(raw.input_tp) + gain - (TARGET_TP - 1.5);
  let source = cut;
  if (over > 0) {
    source = path.join(WORK, `${spec.slug}.limited.wav`);
    const ceiling = Math.pow(10, (TARGET_TP - 2) / 20).toFixed(4);
    await run("ffmpeg", [
      "-hide_banner", "-y", "-i", cut,
      "-af", `volume=${gain.toFixed(2)}dB,aresample=192000,alimiter=limit=${ceiling}:attack=2:release=60:level=false,aresample=48000`,
      "-c:a", "pcm_f32le", source,
    ]);
    console.warn(`${spec.slug}: limited ${over.toFixed(1)} dB of peaks`);
  }
  const json = source === cut ? raw : await analyse(source);
  const second = await run("ffmpeg", [
    "-hide_banner", "-nostats", "-y", "-i", source,
    "-af",
    `loudnorm=I=${TARGET_LUFS}:TP=${TARGET_TP - 1}:LRA=50:measured_I=${json.input_i}:measured_TP=${json.input_tp}` +
      `:measured_LRA=${json.input_lra}:measured_thresh=${json.input_thresh}:offset=${json.target_offset}:linear=true:print_format=json`,
    "-ar", "48000", "-ac", "2", "-c:a", "libopus", "-b:a", `${bitrate}k`, "-vbr", "constrained", "-compression_level", "10",
    // Bit-exact: a rebuild of unchanged specs writes the same bytes (no random Ogg serial), so git sees no change.
    "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact",
    "-metadata", `title=${spec.title}`, "-metadata", "artist=Cutroom", "-metadata", "copyright=CC0-1.0",
    "-metadata", `genre=${spec.genre_tags.join(", ")}`,
    opus,
  ]);
  const type = /"normalization_type"\s*:\s*"(\w+)"/.exec(second.stderr)?.[1];
  if (type !== "linear") console.warn(`${spec.slug}: loudnorm fell back to ${type} normalisation`);
  for (const f of [wav, cut, source]) fs.rmSync(f, { force: true });

  const measured = await measure(opus);
  // Printed for whoever tunes a spec: the 2–4 kHz presence band should sit well under the body (≥ 8 dB).
  const presenceGap = (await bandRms(opus, 250, 2000)) - (await bandRms(opus, 2000, 4000));
  stats.set(spec.slug, { truePeak: measured.truePeak, range: measured.range, presenceGap });
  return {
    slug: spec.slug,
    title: spec.title,
    author: "Cutroom",
    licence: { id: "CC0-1.0", attribution: null },
    genre_tags: spec.genre_tags,
    instrument_tags: spec.instrument_tags,
    video_theme_tags: spec.video_theme_tags,
    file,
    duration_ms: await probeDurationMs(opus),
    loop: { start_ms: composition.loop.startMs, end_ms: composition.loop.endMs },
    energy: spec.energy,
    tempo: spec.tempo,
    loudness_lufs: Math.round(measured.integrated * 10) / 10,
  };
}

/** music/LICENSE.md: the dedication, the soundfont's licence and every track with its own licence. */
function licenceText(tracks: CatalogueTrack[]): string {
  const rows = tracks.map((t) => `| ${t.title} | \`${t.file}\` | ${t.licence.id === "CC0-1.0" ? "CC0 1.0" : t.licence.id} | ${t.author} |`);
  return `# Music licence

Every track in this folder was composed by the Cutroom project — by its own seeded composer
(\`scripts/music/\`, rebuilt with \`npm run music:build\`) — and rendered with the FluidR3_GM soundfont.

**CC0 1.0 Universal.** To the extent possible under law, the Cutroom project has waived all copyright and
related or neighbouring rights to these compositions and recordings
(<https://creativecommons.org/publicdomain/zero/1.0/>). You may copy, change, publish and monetise them,
in videos or on their own, without asking and without attribution.

**The instruments.** The sounds come from FluidR3_GM by Frank Wen (Debian package \`fluid-soundfont-gm\`),
released under the MIT licence. That licence governs copies of the soundfont itself; audio rendered with it
is not a copy of the soundfont, so the MIT licence puts no condition on these recordings.

| Track | File | Licence | Composed by |
| --- | --- | --- | --- |
${rows.join("\n")}
`;
}

async function main() {
  const args = process.argv.slice(2);
  const onlyAt = args.indexOf("--only");
  const only = onlyAt >= 0 ? args[onlyAt + 1]?.split(",") : undefined;
  if (!fs.existsSync(SOUNDFONT)) throw new Error(`No ${SOUNDFONT}: apt-get install fluidsynth fluid-soundfont-gm`);
  fs.mkdirSync(OUT, { recursive: true });
  fs.mkdirSync(WORK, { recursive: true });

  const slugs = new Set<string>();
  for (const spec of SPECS) {
    if (slugs.has(spec.slug)) throw new Error(`duplicate slug ${spec.slug}`);
    slugs.add(spec.slug);
  }
  const compositions = new Map(SPECS.map((spec) => [spec.slug, compose(spec)]));
  // One bitrate for all: the highest that fits the budget with 8 % to spare for VBR overshoot.
  const totalSeconds = [...compositions.values()].reduce((s, c) => s + c.seconds + TAIL_SECONDS, 0);
  const bitrate = Math.min(64, Math.floor((BUDGET_BYTES * 8 * 0.92) / totalSeconds / 1000));
  console.log(`${SPECS.length} tracks, ${(totalSeconds / 60).toFixed(1)} min of music, Opus at ${bitrate} kbps`);

  const catalogueFile = path.join(OUT, "catalogue.json");
  const previous = fs.existsSync(catalogueFile) ? (JSON.parse(fs.readFileSync(catalogueFile, "utf8")) as { tracks: CatalogueTrack[] }).tracks : [];
  const pending = SPECS.filter((s) => !only || only.includes(s.slug));
  const built = new Map<string, CatalogueTrack>();
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const spec = pending[next++] as TrackSpec;
      const started = Date.now();
      built.set(spec.slug, await buildOne(spec, compositions.get(spec.slug) as Composition, bitrate));
      console.log(`built ${spec.slug} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));

  // Keep the spec order; tracks not rebuilt this time keep their previous entry.
  const tracks: CatalogueTrack[] = [];
  for (const spec of SPECS) {
    const entry = built.get(spec.slug) ?? previous.find((t) => t.slug === spec.slug);
    if (entry) tracks.push(entry);
    else console.warn(`${spec.slug} has never been built and is left out: run without --only`);
  }
  for (const name of fs.readdirSync(OUT)) {
    if (name.endsWith(".opus") && !slugs.has(name.slice(0, -5))) fs.rmSync(path.join(OUT, name));
  }
  const peaks = tracks.filter((t) => (stats.get(t.slug)?.truePeak ?? -Infinity) > TARGET_TP);
  fs.writeFileSync(catalogueFile, JSON.stringify({ tracks }, null, 2) + "\n");

  fs.writeFileSync(path.join(OUT, "LICENSE.md"), licenceText(tracks));

  let total = 0;
  console.log(`\n${"slug".padEnd(24)}${"length".padEnd(8)}${"loop (s)".padEnd(14)}${"size".padEnd(10)}${"LUFS".padEnd(7)}${"dBTP".padEnd(7)}${"LRA".padEnd(6)}presence gap`);
  for (const t of tracks) {
    const bytes = fs.statSync(path.join(OUT, t.file)).size;
    total += bytes;
    const mmss = `${Math.floor(t.duration_ms / 60000)}:${String(Math.round((t.duration_ms % 60000) / 1000)).padStart(2, "0")}`;
    const loop = `${(t.loop.start_ms / 1000).toFixed(1)}–${(t.loop.end_ms / 1000).toFixed(1)}`;
    const st = stats.get(t.slug);
    const extra = st ? `${st.truePeak.toFixed(1).padEnd(7)}${st.range.toFixed(1).padEnd(6)}${st.presenceGap.toFixed(1)} dB` : "(not rebuilt)";
    console.log(`${t.slug.padEnd(24)}${mmss.padEnd(8)}${loop.padEnd(14)}${`${(bytes / 1e6).toFixed(2)} MB`.padEnd(10)}${String(t.loudness_lufs).padEnd(7)}${extra}`);
  }
  console.log(`\n${tracks.length} tracks, ${(total / 1e6).toFixed(2)} MB`);
  if (total > BUDGET_BYTES) throw new Error(`the catalogue is ${(total / 1e6).toFixed(1)} MB, over the 30 MB budget`);
  const off = tracks.filter((t) => Math.abs(t.loudness_lufs - TARGET_LUFS) > 1);
  const bright = tracks.filter((t) => (stats.get(t.slug)?.presenceGap ?? Infinity) < MIN_PRESENCE_GAP);
  if (bright.length > 0) throw new Error(`too much in the speech presence band: ${bright.map((t) => `${t.slug} ${stats.get(t.slug)?.presenceGap.toFixed(1)} dB`).join(", ")}`);
  if (peaks.length > 0) throw new Error(`true peak over ${TARGET_TP} dBTP: ${peaks.map((t) => `${t.slug} ${stats.get(t.slug)?.truePeak}`).join(", ")}`);
  if (off.length > 0) throw new Error(`loudness off target: ${off.map((t) => `${t.slug} ${t.loudness_lufs}`).join(", ")}`);
}

await main();
