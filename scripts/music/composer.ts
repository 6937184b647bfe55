/**
 * A seeded procedural composer for background music: a track spec in, MIDI tracks out. Same spec, same
 * notes (every random choice comes from one seeded generator, consumed in a fixed order).
 *
 * Form: intro (4 bars, fading in) · (A B) × n · outro (4 bars: I–IV–I, the tonic held ≤ 5 s, easing down). A and
 * B are 8 bars each, i.e. whole 4- or 8-bar phrases, and every pass of A·B is built the same way, so the
 * stretch from the second A to the outro loops without a seam: the bar before either end is the last bar
 * of a B, so a player jumping back hears the same harmony, tempo, bar and reverb tail it would have heard.
 *
 * Written to sit under speech: soft velocities, a sparse melody with breaths, the busy parts (comping,
 * drums) kept quiet, and no fills or crashes.
 */
import { PPQ, type MidiEvent, type MidiTrack } from "./midi";

export type Mode = "major" | "minor" | "dorian" | "mixolydian" | "lydian";
/** Bass lines: held roots, root + fifth, repeated eighths, a walking line, a tonic drone, a syncopated line. */
export type BassStyle = "whole" | "half" | "pulse" | "walk" | "drone" | "sync";
/** Accompaniment figures over the chord of the bar. */
export type CompStyle = "arp" | "slow-arp" | "broken" | "pick" | "strum" | "stabs" | "pulse" | "ostinato" | "waltz";
export type DrumStyle = "brush" | "lofi" | "pop" | "chill" | "hand" | "shaker";

export interface Voice {
  /** General MIDI program, 0-based. */
  program: number;
  /** Channel volume (CC7), 0–127. */
  volume?: number;
}

export interface TrackSpec {
  slug: string;
  title: string;
  genre_tags: string[];
  instrument_tags: string[];
  video_theme_tags: string[];
  /** 1 very calm, 2 gentle movement, 3 livelier. */
  energy: 1 | 2 | 3;
  tempo: number;
  /** Tonic pitch class name: C, C#, D … B. */
  key: string;
  mode: Mode;
  /** Beats per bar (quarter notes). */
  meter?: 3 | 4;
  /** Target length in seconds; the form picks the number of A·B passes that lands nearest. */
  seconds: number;
  /** Bars per chord: 1, or 2 for slow-moving harmony. */
  chordBars?: 1 | 2;
  /** Chord colour: plain triads, sevenths, or added ninths. */
  color?: "triad" | "seventh" | "add9";
  pad?: Voice;
  bass?: Voice & { style: BassStyle };
  comp?: Voice & { style: CompStyle; /** Octaves above the pad register. */ octave?: number };
  melody?: Voice & {
    /** Notes per bar on average (0.75 very sparse … 3). */
    density: number;
    /** Octave shift from the middle register. */
    octave?: number;
    pentatonic?: boolean;
    /** A second instrument that takes the melody in the B sections. */
    programB?: number;
  };
  /** GM drum kit (bank 128 preset: 0 standard, 8 room, 25 TR-808, 32 jazz, 40 brush) and pattern. */
  drums?: { kit: number; style: DrumStyle; volume?: number };
  /** Eighth-note swing, 0 (straight) to 0.33 (triplet feel). */
  swing?: number;
  seed?: number;
}

const SCALES: Record<Mode, number[]> = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
  lydian: [0, 2, 4, 6, 7, 9, 11],
};

/** Scale degrees (0-based) of the five-note scale inside each mode. */
const PENTATONIC: Record<Mode, number[]> = {
  major: [0, 1, 2, 4, 5],
  lydian: [0, 1, 2, 4, 5],
  mixolydian: [0, 1, 2, 4, 5],
  minor: [0, 2, 3, 4, 6],
  dorian: [0, 2, 3, 4, 6],
};

const PITCH: Record<string, number> = {
  C: 0, "C#": 1, Db: 1, D: 2, "D#": 3, Eb: 3, E: 4, F: 5, "F#": 6, Gb: 6, G: 7, "G#": 8, Ab: 8, A: 9,
  "A#": 10, Bb: 10, B: 11,
};

/** Scale-degree progressions, four chords each. A starts at home; B moves away and leads back to A. */
const PROGRESSIONS: Record<"bright" | "dark", { A: number[][]; B: number[][] }> = {
  bright: {
    A: [[0, 4, 5, 3], [0, 5, 3, 4], [0, 3, 0, 4], [0, 2, 3, 4], [0, 3, 5, 4], [0, 5, 1, 4]],
    B: [[3, 4, 2, 5], [5, 3, 0, 4], [3, 0, 1, 4], [5, 1, 3, 4], [3, 5, 3, 4], [1, 4, 5, 4]],
  },
  dark: {
    A: [[0, 5, 2, 6], [0, 6, 5, 6], [0, 3, 0, 4], [0, 5, 3, 4], [0, 3, 6, 5], [0, 2, 3, 6]],
    B: [[5, 6, 3, 4], [3, 4, 5, 6], [5, 2, 3, 6], [2, 5, 3, 4], [3, 6, 5, 4]],
  },
};

const CH = { pad: 0, bass: 1, melody: 2, comp: 3, melodyB: 4, drums: 9 } as const;

/** Bars in an A or a B section, in the intro and in the outro. */
export const SECTION_BARS = 8;
export const INTRO_BARS = 4;
export const OUTRO_BARS = 4;

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashSeed(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
const at = <T>(list: readonly T[], i: number): T => list[((i % list.length) + list.length) % list.length] as T;

export interface Section {
  name: "intro" | "A" | "B" | "outro";
  startBar: number;
  bars: number;
  /** Which A·B pass this section belongs to (0 for the intro). */
  pass: number;
}

export interface Composition {
  tracks: MidiTrack[];
  sections: Section[];
  bars: number;
  /** Microseconds per quarter note, as written in the file (what the synthesiser plays). */
  usPerQuarter: number;
  beatsPerBar: number;
  /** Where the music itself ends (the last chord's release), in seconds; its sound rings on after it. */
  seconds: number;
  /** The seamless loop, in bars and in milliseconds from the start of the file. */
  loop: { startBar: number; endBar: number; startMs: number; endMs: number };
}

/** Milliseconds per bar exactly as the MIDI file plays it (tempo rounded to whole microseconds). */
export function barMs(spec: Pick<TrackSpec, "tempo" | "meter">): number {
  return (Math.round(60_000_000 / spec.tempo) * (spec.meter ?? 4)) / 1000;
}

/** Bars of one phrase: four chords. */
export function phraseBars(spec: Pick<TrackSpec, "chordBars">): number {
  return 4 * (spec.chordBars ?? 1);
}

/** Lays out intro · (A B) × n · outro with n ≥ 2 passes, landing nearest the target length. */
export function planForm(spec: TrackSpec): Section[] {
  const bar = barMs(spec) / 1000;
  const fixed = INTRO_BARS + OUTRO_BARS;
  let passes = 2;
  let bestError = Infinity;
  for (let n = 2; n <= 16; n++) {
    const seconds = (fixed + n * 2 * SECTION_BARS) * bar;
    if (seconds > 232) break; // leave room for the reverb tail under 4 minutes
    const error = Math.abs(seconds - spec.seconds);
    if (error < bestError) {
      bestError = error;
      passes = n;
    }
  }
  const sections: Section[] = [{ name: "intro", startBar: 0, bars: INTRO_BARS, pass: 0 }];
  let start = INTRO_BARS;
  for (let pass = 0; pass < passes; pass++) {
    for (const name of ["A", "B"] as const) {
      sections.push({ name, startBar: start, bars: SECTION_BARS, pass });
      start += SECTION_BARS;
    }
  }
  sections.push({ name: "outro", startBar: start, bars: OUTRO_BARS, pass: passes - 1 });
  return sections;
}

/** The loop: from the second A (preceded by a B, like the loop's end) to the start of the outro. */
export function loopBars(sections: Section[]): { startBar: number; endBar: number } {
  const secondA = sections.find((s) => s.name === "A" && s.pass === 1);
  const outro = sections.find((s) => s.name === "outro");
  if (!secondA || !outro) throw new Error("a form needs two A·B passes and an outro");
  return { startBar: secondA.startBar, endBar: outro.startBar };
}

/** Chord tones as semitones above the tonic (may exceed 12), from a scale degree. */
function chordTones(scale: number[], degree: number, color: "triad" | "seventh" | "add9"): number[] {
  const steps = color === "seventh" ? [0, 2, 4, 6] : color === "add9" ? [0, 2, 4, 8] : [0, 2, 4];
  return steps.map((step) => {
    const idx = degree + step;
    return at(scale, idx) + 12 * Math.floor(idx / scale.length);
  });
}

/** Voices a chord near the previous voicing (smallest movement of its centre), within [lo, hi]. */
function voiceLead(pitchClasses: number[], previous: number[] | null, lo: number, hi: number): number[] {
  const candidates: number[][] = [];
  for (let inversion = 0; inversion < pitchClasses.length; inversion++) {
    const rotated = pitchClasses.slice(inversion).concat(pitchClasses.slice(0, inversion));
    let cur = lo + ((((rotated[0] as number) - lo) % 12) + 12) % 12;
    const voicing: number[] = [];
    for (const pc of rotated) {
      while ((((cur - pc) % 12) + 12) % 12 !== 0) cur++;
      voicing.push(cur);
      cur++;
    }
    if ((voicing[voicing.length - 1] as number) <= hi) candidates.push(voicing);
  }
  if (candidates.length === 0) return pitchClasses.map((pc) => lo + ((((pc - lo) % 12) + 12) % 12));
  const centre = (v: number[]) => v.reduce((s, n) => s + n, 0) / v.length;
  const target = previous ? centre(previous) : (lo + hi) / 2;
  let best = candidates[0] as number[];
  let bestCost = Infinity;
  for (const c of candidates) {
    const cost = Math.abs(centre(c) - target) + 0.05 * ((c[c.length - 1] as number) - (c[0] as number));
    if (cost < bestCost) {
      bestCost = cost;
      best = c;
    }
  }
  return best;
}

/** Sharps (negative: flats) of the key signature: the relative major's place on the circle of fifths. */
function keySignature(tonic: number, mode: Mode): number {
  const toMajor: Record<Mode, number> = { major: 0, minor: 3, dorian: 10, mixolydian: 5, lydian: 7 };
  const major = (tonic + toMajor[mode]) % 12;
  const fifths = (major * 7) % 12;
  return fifths > 6 ? fifths - 12 : fifths;
}

interface MotifNote {
  /** Start in eighths from the motif's first bar. */
  at: number;
  /** Length in eighths. */
  len: number;
  /** Scale steps from the previous note. */
  step: number;
}

export function compose(spec: TrackSpec): Composition {
  const rng = mulberry32(spec.seed ?? hashSeed(spec.slug));
  const tonic = PITCH[spec.key];
  if (tonic === undefined) throw new Error(`${spec.slug}: unknown key ${spec.key}`);
  const beats = spec.meter ?? 4;
  const chordBars = spec.chordBars ?? 1;
  const color = spec.color ?? "triad";
  const scale = SCALES[spec.mode];
  const bright = spec.mode === "major" || spec.mode === "lydian" || spec.mode === "mixolydian";
  const pool = PROGRESSIONS[bright ? "bright" : "dark"];
  const progA = pick(rng, pool.A);
  const progB = pick(rng, pool.B);
  const swing = spec.swing ?? 0;

  const sections = planForm(spec);
  const last = sections[sections.length - 1] as Section;
  const bars = last.startBar + last.bars;
  const bar = PPQ * beats;
  const eighth = PPQ / 2;
  const eighthsPerBar = beats * 2;
  const end = bars * bar;
  // The last chord is held up to two bars but no more than 5 s: at slow tempi two bars would leave
  // a long, near-silent decay at the end.
  const finalHold = Math.min(2 * bar - 20, Math.round((5 * PPQ * spec.tempo) / 60));
  const swung = (tick: number) => (tick % PPQ === eighth ? tick + Math.round(swing * eighth) : tick);
  const human = (spread: number) => Math.round((rng() - 0.5) * spread);

  const pad: MidiEvent[] = [];
  const bass: MidiEvent[] = [];
  const melody: MidiEvent[] = [];
  const melodyB: MidiEvent[] = [];
  const comp: MidiEvent[] = [];
  const drums: MidiEvent[] = [];

  // Mixer: programs, volumes, pan, reverb and chorus sends; expression (CC11) carries the fades.
  const setup = (events: MidiEvent[], channel: number, program: number, volume: number, pan: number, reverb: number) => {
    events.push({ tick: 0, kind: "program", channel, program });
    events.push({ tick: 0, kind: "cc", channel, controller: 7, value: volume });
    events.push({ tick: 0, kind: "cc", channel, controller: 10, value: pan });
    events.push({ tick: 0, kind: "cc", channel, controller: 91, value: reverb });
    events.push({ tick: 0, kind: "cc", channel, controller: 93, value: Math.round(reverb / 4) });
  };
  // Fade in over the first two bars; ease down from the outro's second bar so the last chord rings
  // softly and dies away on its own (fading to nothing would leave seconds of silence at the end).
  const fadeOutStart = (last.startBar + 1) * bar;
  const envelope = (events: MidiEvent[], channel: number) => {
    for (let i = 0; i <= 16; i++) {
      events.push({ tick: Math.round((i / 16) * 2 * bar), kind: "cc", channel, controller: 11, value: 50 + (77 * i) / 16 });
    }
    const steps = 48;
    for (let i = 0; i <= steps; i++) {
      const x = i / steps;
      events.push({ tick: Math.round(fadeOutStart + x * (end - fadeOutStart)), kind: "cc", channel, controller: 11, value: 127 - 67 * Math.pow(x, 0.8) });
    }
  };
  const voices: [MidiEvent[], number, Voice | undefined, number, number, number][] = [
    [pad, CH.pad, spec.pad, 72, 50, 90],
    [bass, CH.bass, spec.bass, 90, 64, 30],
    [melody, CH.melody, spec.melody, 80, 72, 80],
    [comp, CH.comp, spec.comp, 68, 42, 70],
  ];
  if (spec.melody?.programB !== undefined) voices.push([melodyB, CH.melodyB, { program: spec.melody.programB, volume: spec.melody.volume }, 80, 80, 85]);
  for (const [events, channel, voice, volume, pan, reverb] of voices) {
    if (!voice) continue;
    setup(events, channel, voice.program, voice.volume ?? volume, pan, reverb);
    envelope(events, channel);
  }
  if (spec.drums) {
    // Program changes on channel 10 pick a drum kit (bank 128).
    setup(drums, CH.drums, spec.drums.kit, spec.drums.volume ?? 64, 64, 35);
    envelope(drums, CH.drums);
  }

  // Harmony, bar by bar: a degree per bar for every section.
  const outroDegrees = [0, 3, 0, 0];
  const degreeAt = (section: Section, b: number): number => {
    if (section.name === "outro") return outroDegrees[b] as number;
    const prog = section.name === "B" ? progB : progA;
    return at(prog, Math.floor(b / chordBars));
  };

  // Fixed per-track figures, so every pass plays the same accompaniment.
  const ostinato: (number | null)[] = [];
  for (let i = 0; i < eighthsPerBar; i++) ostinato.push(i === 0 ? 0 : rng() < 0.55 ? Math.floor(rng() * 5) : null);
  const lofiKick = Array.from({ length: 2 }, () => rng() < 0.5);

  let previousVoicing: number[] | null = null;
  for (const section of sections) {
    for (let b = 0; b < section.bars; b++) {
      const barIndex = section.startBar + b;
      const t0 = barIndex * bar;
      const isFinal = section.name === "outro" && b >= section.bars - 2;
      const degree = degreeAt(section, b);
      const nextDegree = b + 1 < section.bars ? degreeAt(section, b + 1) : section.name === "B" || section.name === "intro" ? (progA[0] as number) : 0;
      const tones = chordTones(scale, degree, isFinal ? "triad" : color);
      const pcs = tones.map((n) => (n + tonic) % 12);
      const voicing = voiceLead(pcs, previousVoicing, 53, 74);
      previousVoicing = voicing;
      const root = 36 + ((tonic + (tones[0] as number)) % 12);
      const fifth = root + 7;
      const chordStart = b % chordBars === 0;
      const lastBar = isFinal && b === section.bars - 1;
      const body = section.name === "A" || section.name === "B";

      // Pad: the chord held for its whole length (the final tonic held two bars).
      if (spec.pad && chordStart && !lastBar) {
        const length = isFinal ? finalHold : chordBars * bar - 10;
        for (const key of voicing) pad.push({ tick: t0, kind: "note", channel: CH.pad, key, velocity: 46 + human(6), length });
      }

      // Without a pad, the accompaniment instrument holds the final chord, rolled from the bass up.
      if (!spec.pad && spec.comp && isFinal && !lastBar) {
        const keys = [root + 12 * (spec.bass ? 1 : 0), ...voicing.map((k) => k + 12 * (spec.comp?.octave ?? 0))];
        keys.forEach((key, i) => comp.push({ tick: t0 + i * 40, kind: "note", channel: CH.comp, key, velocity: 42 - i, length: finalHold - i * 40 }));
      }

      // Bass.
      if (spec.bass && !lastBar) {
        const style = section.name === "intro" || isFinal ? (spec.bass.style === "drone" ? "drone" : "whole") : spec.bass.style;
        const v = 60 + human(6);
        const note = (tick: number, key: number, length: number, velocity = v) =>
          bass.push({ tick, kind: "note", channel: CH.bass, key, velocity, length });
        if (style === "whole") {
          if (chordStart || isFinal) note(t0, root, isFinal ? finalHold : chordBars * bar - 20);
        } else if (style === "drone") {
          const tonicBass = 36 + tonic;
          if (b % 4 === 0 || isFinal) note(t0, tonicBass, isFinal ? finalHold : Math.min(4, section.bars - b) * bar - 20, 56);
        } else if (style === "half") {
          note(t0, root, (beats === 3 ? 3 : 2) * PPQ - 30);
          if (beats === 4) note(t0 + 2 * PPQ, rng() < 0.5 ? fifth : root, 2 * PPQ - 30, v - 6);
        } else if (style === "pulse") {
          for (let i = 0; i < eighthsPerBar; i++) note(t0 + i * eighth, root, eighth - 40, (i % 2 === 0 ? v - 3 : v - 10) + human(4));
        } else if (style === "walk") {
          const third = root + ((at(scale, degree + 2) - at(scale, degree) + 12) % 12);
          const nextRoot = 36 + ((tonic + at(scale, nextDegree)) % 12);
          const approach = nextRoot + (rng() < 0.5 ? -1 : 2);
          const line = beats === 4 ? [root, rng() < 0.5 ? third : fifth, fifth, approach] : [root, fifth, approach];
          line.forEach((key, i) => note(swung(t0 + i * PPQ), key, PPQ - 30, v - (i === 0 ? 0 : 8)));
        } else if (style === "sync") {
          note(t0, root, PPQ * 1.5 - 20);
          note(t0 + PPQ * 1.5, root, PPQ - 20, v - 10);
          if (beats === 4) note(t0 + PPQ * 3, rng() < 0.5 ? fifth : root + 12, PPQ - 30, v - 8);
        }
      }

      // Accompaniment figure (not in the held final bars; it enters softly in the intro).
      if (spec.comp && !isFinal) {
        const lift = 12 * (spec.comp.octave ?? 0);
        const chord = voicing.map((k) => k + lift);
        const tone = (i: number) => (chord[i % chord.length] as number) + 12 * Math.floor(i / chord.length);
        const velocity = 40 + (section.name === "intro" ? -6 : 0);
        const note = (tick: number, key: number, length: number, v = velocity) =>
          comp.push({ tick: Math.max(0, tick), kind: "note", channel: CH.comp, key, velocity: v + human(6), length });
        const style = spec.comp.style;
        if (style === "arp" || style === "slow-arp") {
          const rate = style === "arp" ? eighth : PPQ;
          const steps = bar / rate;
          const shape = [0, 1, 2, 3, 4, 3, 2, 1];
          for (let i = 0; i < steps; i++) note(swung(t0 + i * rate) + human(8), tone(at(shape, i)), rate * 1.6, velocity + (i % 2 === 0 ? 3 : -3));
        } else if (style === "broken") {
          // Piano left hand: low root, fifth, tenth, fifth.
          const low = root + 12 + lift;
          const shape = beats === 4 ? [low, low + 7, low + 16 - (tones[1]! - tones[0]! === 3 ? 1 : 0), low + 7] : [low, low + 7, low + 16 - (tones[1]! - tones[0]! === 3 ? 1 : 0)];
          shape.forEach((key, i) => note(t0 + i * PPQ + human(8), key, PPQ * 1.8, velocity + (i === 0 ? 4 : -2)));
        } else if (style === "pick") {
          // Fingerpicking: thumb on the beats (root, fifth), fingers on the off-beats.
          for (let i = 0; i < eighthsPerBar; i++) {
            const tick = swung(t0 + i * eighth) + human(8);
            if (i % 2 === 0) note(tick, (i / 2) % 2 === 0 ? root + 12 : fifth + 12, PPQ * 1.5, velocity + 4);
            else note(tick, tone(1 + ((i - 1) / 2) % 3), eighth * 2.5, velocity - 4);
          }
        } else if (style === "strum") {
          const hits = beats === 4 ? [[0, 1], [3, -1], [4, 1], [6, 1], [7, -1]] : [[0, 1], [2, 1], [4, 1], [5, -1]];
          for (const [pos, dir] of hits) {
            const keys = dir === 1 ? chord : [...chord].reverse();
            keys.forEach((key, i) => note(swung(t0 + (pos as number) * eighth) + i * 14, key, eighth * 1.8, velocity - (pos === 0 ? 0 : 6) - i));
          }
        } else if (style === "stabs") {
          const positions = beats === 4 ? [3, 6] : [2, 4];
          for (const pos of positions) for (const key of chord) note(swung(t0 + pos * eighth) + human(6), key, eighth * 1.3, velocity - 2);
        } else if (style === "pulse") {
          for (let i = 0; i < eighthsPerBar; i++) for (const key of chord.slice(0, 3)) note(t0 + i * eighth, key, eighth * 0.7, velocity - (i % 2 === 0 ? 2 : 9));
        } else if (style === "ostinato") {
          ostinato.forEach((slot, i) => {
            if (slot !== null) note(swung(t0 + i * eighth) + human(6), tone(slot), eighth * 2, velocity + (i === 0 ? 3 : -2));
          });
        } else if (style === "waltz") {
          for (let beat = 1; beat < beats; beat++) for (const key of chord) note(t0 + beat * PPQ + human(6), key, PPQ * 0.8, velocity - 4);
        }
      }

      // Drums: only in the body and the outro's first bars, soft, the same in every pass.
      if (spec.drums && (body || (section.name === "outro" && !isFinal))) {
        const d = spec.drums.style;
        const hit = (tick: number, key: number, velocity: number) =>
          drums.push({ tick: Math.max(0, tick), kind: "note", channel: CH.drums, key, velocity: velocity + human(6), length: eighth / 2 });
        const eighths = (key: number, on: number, off: number) => {
          for (let i = 0; i < eighthsPerBar; i++) hit(swung(t0 + i * eighth) + human(6), key, i % 2 === 0 ? on : off);
        };
        if (d === "brush") {
          hit(t0, 36, 44);
          if (beats === 4) hit(t0 + 2 * PPQ, 36, 38);
          for (let beat = 1; beat < beats; beat += beats === 4 ? 2 : 1) hit(t0 + beat * PPQ, 38, 30);
          eighths(44, 26, 18);
        } else if (d === "lofi") {
          hit(t0, 36, 52);
          if (at(lofiKick, b)) hit(swung(t0 + 2 * PPQ + eighth), 36, 40);
          else hit(t0 + 2 * PPQ, 36, 44);
          for (const beat of [1, 3]) hit(t0 + beat * PPQ + human(10), 37, 40);
          eighths(42, 28, 20);
        } else if (d === "pop") {
          hit(t0, 36, 50);
          hit(t0 + 2 * PPQ, 36, 44);
          for (const beat of [1, 3]) hit(t0 + beat * PPQ, 39, 30);
          eighths(42, 24, 16);
        } else if (d === "chill") {
          hit(t0, 36, 50);
          if (beats === 4) hit(t0 + 2 * PPQ + eighth, 36, 38);
          hit(t0 + (beats - 1) * PPQ, 37, 34);
          for (let i = 0; i < eighthsPerBar; i++) if (i % 2 === 1) hit(swung(t0 + i * eighth), 42, 22);
          eighths(70, 20, 14);
        } else if (d === "hand") {
          const pattern = beats === 4 ? [[0, 64, 42], [3, 63, 32], [4, 62, 28], [6, 63, 32], [7, 64, 26]] : [[0, 64, 42], [2, 63, 30], [4, 62, 28], [5, 63, 26]];
          for (const [pos, key, v] of pattern) hit(swung(t0 + (pos as number) * eighth) + human(8), key as number, v as number);
          eighths(70, 20, 14);
        } else if (d === "shaker") {
          hit(t0, 36, 40);
          eighths(70, 24, 16);
        }
      }
    }
  }

  // Melody: 2-bar motifs in 8-bar sections planned as statement, answer, contrast (or a breath), cadence.
  if (spec.melody) {
    const m = spec.melody;
    const density = m.density;
    const motifEighths = 2 * eighthsPerBar;
    const makeMotif = (): MotifNote[] => {
      const notes: MotifNote[] = [];
      const mean = eighthsPerBar / density; // average eighths per note
      const lengths = mean >= 6 ? [4, 6, 8] : mean >= 3.5 ? [2, 3, 4, 6] : mean >= 2.5 ? [2, 2, 3, 4] : [1, 2, 2, 3];
      let pos = pick(rng, [0, 0, 1, 2]);
      while (pos < motifEighths - 2) {
        const len = Math.min(pick(rng, lengths), motifEighths - 2 - pos);
        notes.push({ at: pos, len, step: pick(rng, [-2, -1, -1, 1, 1, 2, 0]) });
        pos += len + (rng() < 0.25 ? pick(rng, [1, 2]) : 0);
      }
      // The motif ends on a held note followed by a breath.
      const tail = notes[notes.length - 1];
      if (tail) tail.len = Math.max(tail.len, motifEighths - 2 - tail.at);
      return notes;
    };
    const motifs = { A: makeMotif(), B: makeMotif(), contrastA: makeMotif(), contrastB: makeMotif() };
    const sparse = density < 1.5;
    const allowed = m.pentatonic ? PENTATONIC[spec.mode] : [0, 1, 2, 3, 4, 5, 6];
    const snapToAllowed = (deg: number) => {
      for (let d = 0; d < 7; d++) {
        for (const c of [deg - d, deg + d]) if (allowed.includes(at([0, 1, 2, 3, 4, 5, 6], c))) return c;
      }
      return deg;
    };
    const melodyBase = 60 + ((tonic + 5) % 12) - 5 + 12 * (m.octave ?? 0); // tonic between G3 and F#4, plus octaves
    const keyOf = (deg: number) => melodyBase + at(scale, deg) + 12 * Math.floor(deg / 7);
    const chordTonesAt = (section: Section, barInSection: number): number[] => {
      const d = degreeAt(section, barInSection);
      return [d, d + 2, d + 4];
    };
    const nearestChordTone = (deg: number, section: Section, barInSection: number) => {
      let best = deg;
      let dist = Infinity;
      for (const t of chordTonesAt(section, barInSection)) for (const oct of [-14, -7, 0, 7, 14]) {
        const cand = t + oct;
        if (cand < -3 || cand > 9 || !allowed.includes(at([0, 1, 2, 3, 4, 5, 6], cand))) continue;
        if (Math.abs(cand - deg) < dist) {
          dist = Math.abs(cand - deg);
          best = cand;
        }
      }
      return best;
    };

    for (const section of sections) {
      if (section.name !== "A" && section.name !== "B") continue;
      const channel = section.name === "B" && m.programB !== undefined ? CH.melodyB : CH.melody;
      const target = channel === CH.melodyB ? melodyB : melody;
      const main = section.name === "A" ? motifs.A : motifs.B;
      const contrast = section.name === "A" ? motifs.contrastA : motifs.contrastB;
      // Slots of 2 bars: statement, answer a step higher, contrast (a breath when sparse), cadence.
      const plan: { motif: MotifNote[] | null; start: number; cadence: boolean }[] = [
        { motif: main, start: section.name === "A" ? 4 : 2, cadence: false },
        { motif: main, start: section.name === "A" ? 5 : 3, cadence: false },
        { motif: sparse ? null : contrast, start: section.name === "A" ? 7 : 4, cadence: false },
        { motif: main, start: section.name === "A" ? 4 : 2, cadence: true },
      ];
      plan.forEach((slot, s) => {
        if (!slot.motif) return;
        let deg = slot.start;
        slot.motif.forEach((note, i) => {
          if (i > 0) deg += note.step;
          // Later passes ornament a few notes; the rhythm and the shape stay.
          if (section.pass > 0 && i > 0 && rng() < 0.2) deg += pick(rng, [-1, 1]);
          deg = Math.max(-3, Math.min(9, deg));
          const barInSection = s * 2 + Math.floor(note.at / eighthsPerBar);
          const onStrong = note.at % (beats === 4 ? 4 : eighthsPerBar) === 0;
          const isLast = i === (slot.motif as MotifNote[]).length - 1;
          if (isLast && slot.cadence) {
            // A phrase ends on the root of its chord, in the octave nearest the line.
            const rootDeg = degreeAt(section, barInSection);
            deg = [rootDeg - 7, rootDeg, rootDeg + 7].filter((c) => c >= -3 && c <= 9).reduce((a, c) => (Math.abs(c - deg) < Math.abs(a - deg) ? c : a), rootDeg);
          } else if (onStrong || isLast) deg = nearestChordTone(deg, section, barInSection);
          else deg = snapToAllowed(deg);
          const tick = (section.startBar + s * 2) * bar + note.at * eighth;
          target.push({
            tick: Math.max(0, swung(tick) + human(10)),
            kind: "note",
            channel,
            key: keyOf(deg),
            velocity: 50 + human(8) + (onStrong ? 4 : 0) - (isLast ? 4 : 0),
            length: note.len * eighth - 24,
          });
        });
      });
    }
  }

  const usPerQuarter = Math.round(60_000_000 / spec.tempo);
  const tempoTrack: MidiTrack = {
    events: [
      { tick: 0, kind: "name", text: spec.title },
      { tick: 0, kind: "tempo", bpm: spec.tempo },
      { tick: 0, kind: "timesig", numerator: beats, denominator: 4 },
      { tick: 0, kind: "keysig", sharps: keySignature(tonic, spec.mode), minor: !bright },
      { tick: end + bar, kind: "end" },
    ],
  };
  const tracks: MidiTrack[] = [tempoTrack];
  for (const events of [pad, bass, melody, comp, melodyB, drums]) if (events.some((e) => e.kind === "note")) tracks.push({ events });
  const loop = loopBars(sections);
  const msPerBar = (usPerQuarter * beats) / 1000;
  return {
    tracks,
    sections,
    bars,
    usPerQuarter,
    beatsPerBar: beats,
    seconds: ((bars - 2) * msPerBar + (finalHold / PPQ) * (usPerQuarter / 1000)) / 1000,
    loop: { ...loop, startMs: Math.round(loop.startBar * msPerBar), endMs: Math.round(loop.endBar * msPerBar) },
  };
}
