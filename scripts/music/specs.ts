/**
 * The catalogue's tracks. Each is composed by composer.ts (seeded by its slug) and rendered with
 * fluidsynth + FluidR3_GM by build.ts. Programs are General MIDI numbers, 0-based:
 * 0 piano, 4/5 electric piano, 8 celesta, 9 glockenspiel, 11 vibraphone, 12 marimba, 21 accordion,
 * 22 harmonica, 24 nylon guitar, 25 steel guitar, 26 jazz guitar, 27 clean electric guitar, 32 acoustic bass,
 * 33 finger bass, 35 fretless bass, 38 synth bass, 42 cello, 43 contrabass, 45 pizzicato, 46 harp,
 * 48 strings, 49 slow strings, 52 choir, 60 french horn, 71 clarinet, 73 flute, 74 recorder, 75 pan flute,
 * 77 shakuhachi, 79 ocarina, 89 warm pad, 92 bowed-glass pad, 94 halo pad, 107 koto.
 * Pads that swell and decay (88 new-age, 38 synth bass held long) pulse bar by bar: the loudness range
 * jumps (16 LU); sustaining ones keep it under ~6 LU. Bright leads (clarinet, cello, harmonica) sit in the
 * 2–4 kHz band where speech is understood: keep their volume low (the build prints that "presence gap").
 * Drum kits (bank 128): 0 standard, 25 TR-808, 40 brush.
 *
 * Changing a spec changes its notes: rebuild with `npm run music:build` and commit music/.
 */
import type { TrackSpec } from "./composer";

export const SPECS: TrackSpec[] = [
  {
    slug: "morning-notes", title: "Morning Notes", energy: 2,
    genre_tags: ["acoustic", "pop"], instrument_tags: ["piano", "guitar", "strings"], video_theme_tags: ["vlog", "tutorial", "lifestyle"],
    tempo: 92, key: "G", mode: "major", seconds: 165,
    pad: { program: 48, volume: 58 }, bass: { program: 32, style: "half" }, comp: { program: 25, style: "pick" },
    melody: { program: 0, density: 1.5 }, drums: { kit: 0, style: "shaker", volume: 56 },
  },
  {
    slug: "quiet-harbour", title: "Quiet Harbour", energy: 1,
    genre_tags: ["ambient", "cinematic"], instrument_tags: ["pad", "harp", "flute"], video_theme_tags: ["travel", "nature", "documentary"],
    tempo: 64, key: "D", mode: "lydian", seconds: 180, chordBars: 2,
    pad: { program: 89 }, bass: { program: 32, style: "whole", volume: 80 }, comp: { program: 46, style: "slow-arp" },
    melody: { program: 73, density: 0.8, volume: 70 },
  },
  {
    slug: "late-desk", title: "Late Desk", energy: 2,
    genre_tags: ["lo-fi", "jazz"], instrument_tags: ["electric piano", "vibraphone", "bass", "drums"], video_theme_tags: ["study", "tech", "podcast"],
    tempo: 78, key: "A", mode: "dorian", seconds: 160, color: "seventh", swing: 0.25,
    pad: { program: 4, volume: 70 }, bass: { program: 33, style: "sync" },
    melody: { program: 11, density: 1.2 }, drums: { kit: 0, style: "lofi", volume: 56 },
  },
  {
    slug: "slow-reflections", title: "Slow Reflections", energy: 1,
    genre_tags: ["classical", "cinematic"], instrument_tags: ["strings", "piano"], video_theme_tags: ["interview", "story", "documentary"],
    tempo: 66, key: "E", mode: "minor", seconds: 190, chordBars: 2,
    pad: { program: 49, volume: 66 }, bass: { program: 43, style: "whole", volume: 76 }, comp: { program: 0, style: "broken" },
    melody: { program: 0, density: 1 },
  },
  {
    slug: "bright-horizon", title: "Bright Horizon", energy: 3,
    genre_tags: ["corporate", "upbeat"], instrument_tags: ["piano", "guitar", "bass", "drums"], video_theme_tags: ["business", "presentation", "product"],
    tempo: 112, key: "C", mode: "major", seconds: 150,
    pad: { program: 48, volume: 52 }, bass: { program: 33, style: "pulse", volume: 80 }, comp: { program: 0, style: "pulse", volume: 60 },
    melody: { program: 25, density: 1.5 }, drums: { kit: 0, style: "pop", volume: 58 },
  },
  {
    slug: "open-fields", title: "Open Fields", energy: 2,
    genre_tags: ["folk", "acoustic"], instrument_tags: ["guitar", "recorder", "bass"], video_theme_tags: ["nature", "travel", "family"],
    tempo: 100, key: "D", mode: "major", meter: 3, seconds: 150,
    pad: { program: 48, volume: 44 }, bass: { program: 32, style: "half" }, comp: { program: 25, style: "strum", volume: 62 },
    melody: { program: 74, density: 1.2, volume: 70 },
  },
  {
    slug: "night-drive", title: "Night Drive", energy: 2,
    genre_tags: ["electronic", "chill"], instrument_tags: ["synth", "pad", "bass", "drums"], video_theme_tags: ["tech", "city", "night"],
    tempo: 90, key: "F", mode: "minor", seconds: 170, color: "seventh",
    pad: { program: 89 }, bass: { program: 38, style: "sync", volume: 74 }, comp: { program: 5, style: "arp", octave: 1, volume: 52 },
    melody: { program: 11, density: 0.8 }, drums: { kit: 25, style: "chill", volume: 56 },
  },
  {
    slug: "still-water", title: "Still Water", energy: 1,
    genre_tags: ["piano", "solo", "calm"], instrument_tags: ["piano"], video_theme_tags: ["meditation", "wellness", "reflection"],
    tempo: 60, key: "Ab", mode: "major", seconds: 180, chordBars: 2, color: "add9",
    comp: { program: 0, style: "broken", volume: 76 }, melody: { program: 0, density: 0.8, volume: 84 },
  },
  {
    slug: "paper-planes", title: "Paper Planes", energy: 3,
    genre_tags: ["pop", "acoustic", "playful"], instrument_tags: ["guitar", "marimba", "bass"], video_theme_tags: ["kids", "education", "tutorial"],
    tempo: 116, key: "F", mode: "major", seconds: 150,
    bass: { program: 32, style: "half" }, comp: { program: 24, style: "pick" },
    melody: { program: 12, density: 1.2 }, drums: { kit: 0, style: "shaker", volume: 58 },
  },
  {
    slug: "bamboo-garden", title: "Bamboo Garden", energy: 2,
    genre_tags: ["world", "ambient"], instrument_tags: ["koto", "shakuhachi", "percussion"], video_theme_tags: ["travel", "nature", "culture"],
    tempo: 84, key: "E", mode: "minor", seconds: 170,
    pad: { program: 89, volume: 50 }, bass: { program: 32, style: "drone", volume: 76 }, comp: { program: 107, style: "ostinato" },
    melody: { program: 77, density: 0.8, pentatonic: true, volume: 72 }, drums: { kit: 0, style: "hand", volume: 50 },
  },
  {
    slug: "market-day", title: "Market Day", energy: 3,
    genre_tags: ["world", "latin", "acoustic"], instrument_tags: ["marimba", "pan flute", "bass", "percussion"], video_theme_tags: ["travel", "food", "lifestyle"],
    tempo: 104, key: "A", mode: "mixolydian", seconds: 160,
    bass: { program: 32, style: "sync" }, comp: { program: 12, style: "ostinato", volume: 66 },
    melody: { program: 75, density: 1.2, pentatonic: true, volume: 68 }, drums: { kit: 0, style: "hand", volume: 56 },
  },
  {
    slug: "first-light", title: "First Light", energy: 1,
    genre_tags: ["cinematic", "ambient"], instrument_tags: ["strings", "piano", "horn", "cello"], video_theme_tags: ["documentary", "inspiration", "nature"],
    tempo: 70, key: "Bb", mode: "major", seconds: 190, chordBars: 2,
    pad: { program: 49, volume: 68 }, bass: { program: 43, style: "whole", volume: 76 }, comp: { program: 0, style: "slow-arp", octave: 1, volume: 58 },
    melody: { program: 60, density: 0.8, volume: 66, programB: 42 },
  },
  {
    slug: "coffee-break", title: "Coffee Break", energy: 2,
    genre_tags: ["jazz", "lo-fi"], instrument_tags: ["piano", "jazz guitar", "bass", "brushes"], video_theme_tags: ["cooking", "cafe", "vlog"],
    tempo: 88, key: "Eb", mode: "major", seconds: 170, color: "seventh", swing: 0.3,
    pad: { program: 4, volume: 56 }, bass: { program: 32, style: "walk" }, comp: { program: 26, style: "stabs", volume: 64 },
    melody: { program: 0, density: 1.2 }, drums: { kit: 40, style: "brush", volume: 62 },
  },
  {
    slug: "soft-focus", title: "Soft Focus", energy: 1,
    genre_tags: ["ambient", "calm"], instrument_tags: ["pad", "celesta", "choir"], video_theme_tags: ["meditation", "wellness", "sleep"],
    tempo: 60, key: "F#", mode: "major", seconds: 180, chordBars: 2, color: "add9",
    pad: { program: 94 }, bass: { program: 32, style: "drone", volume: 70 }, comp: { program: 8, style: "slow-arp", octave: 1, volume: 50 },
    melody: { program: 52, density: 0.75, volume: 64 },
  },
  {
    slug: "city-lights", title: "City Lights", energy: 2,
    genre_tags: ["lo-fi", "chill", "electronic"], instrument_tags: ["electric piano", "bass", "drums"], video_theme_tags: ["city", "study", "gaming"],
    tempo: 86, key: "G", mode: "dorian", seconds: 160, color: "seventh", swing: 0.2,
    pad: { program: 4, volume: 68 }, bass: { program: 33, style: "sync" },
    melody: { program: 5, density: 1 }, drums: { kit: 25, style: "lofi", volume: 54 },
  },
  {
    slug: "step-forward", title: "Step Forward", energy: 3,
    genre_tags: ["corporate", "motivational"], instrument_tags: ["piano", "strings", "bass", "drums"], video_theme_tags: ["business", "startup", "presentation"],
    tempo: 120, key: "D", mode: "major", seconds: 145,
    pad: { program: 48, volume: 56 }, bass: { program: 33, style: "pulse", volume: 78 }, comp: { program: 0, style: "arp", volume: 58 },
    melody: { program: 27, density: 1, volume: 70 }, drums: { kit: 0, style: "pop", volume: 56 },
  },
  {
    slug: "village-dance", title: "Village Dance", energy: 3,
    genre_tags: ["folk", "waltz"], instrument_tags: ["accordion", "guitar", "bass"], video_theme_tags: ["travel", "family", "food"],
    tempo: 108, key: "G", mode: "major", meter: 3, seconds: 150,
    bass: { program: 32, style: "half" }, comp: { program: 24, style: "waltz" },
    melody: { program: 21, density: 1.3, volume: 56 },
  },
  {
    slug: "northern-sky", title: "Northern Sky", energy: 1,
    genre_tags: ["cinematic", "ambient"], instrument_tags: ["choir", "harp", "cello", "strings"], video_theme_tags: ["landscape", "documentary", "winter"],
    tempo: 62, key: "B", mode: "minor", seconds: 200, chordBars: 2,
    pad: { program: 52, volume: 62 }, bass: { program: 43, style: "whole", volume: 74 }, comp: { program: 46, style: "slow-arp" },
    melody: { program: 42, density: 0.75, volume: 74 },
  },
  {
    slug: "gentle-steps", title: "Gentle Steps", energy: 2,
    genre_tags: ["classical", "light"], instrument_tags: ["piano", "clarinet", "strings", "pizzicato"], video_theme_tags: ["education", "tutorial", "family"],
    tempo: 96, key: "F", mode: "major", seconds: 150,
    pad: { program: 48, volume: 44 }, bass: { program: 45, style: "half", volume: 84 }, comp: { program: 0, style: "broken" },
    melody: { program: 71, density: 1.2, volume: 44 },
  },
  {
    slug: "sunday-porch", title: "Sunday Porch", energy: 2,
    genre_tags: ["folk", "acoustic", "country"], instrument_tags: ["guitar", "harmonica", "bass"], video_theme_tags: ["outdoors", "travel", "lifestyle"],
    tempo: 84, key: "A", mode: "major", seconds: 170,
    bass: { program: 32, style: "half" }, comp: { program: 25, style: "pick", volume: 72 },
    melody: { program: 22, density: 0.9, volume: 54 },
  },
  {
    slug: "glass-garden", title: "Glass Garden", energy: 2,
    genre_tags: ["ambient", "electronic"], instrument_tags: ["vibraphone", "pad", "bass"], video_theme_tags: ["tech", "science", "explainer"],
    tempo: 76, key: "C", mode: "minor", seconds: 180, chordBars: 2, color: "add9",
    pad: { program: 92, volume: 66 }, bass: { program: 35, style: "whole", volume: 70 }, comp: { program: 11, style: "ostinato", volume: 62 },
  },
  {
    slug: "hometown", title: "Hometown", energy: 1,
    genre_tags: ["acoustic", "ballad"], instrument_tags: ["piano", "cello", "strings"], video_theme_tags: ["family", "wedding", "memories"],
    tempo: 72, key: "Eb", mode: "major", seconds: 180,
    pad: { program: 48, volume: 48 }, bass: { program: 32, style: "whole" }, comp: { program: 0, style: "broken" },
    melody: { program: 42, density: 0.9, volume: 56 },
  },
  {
    slug: "quiet-study", title: "Quiet Study", energy: 2,
    genre_tags: ["lo-fi", "chill"], instrument_tags: ["piano", "flute", "bass", "drums"], video_theme_tags: ["study", "coding", "podcast"],
    tempo: 72, key: "D", mode: "minor", seconds: 160, color: "seventh", swing: 0.28,
    pad: { program: 4, volume: 54 }, bass: { program: 33, style: "whole" }, comp: { program: 0, style: "stabs", volume: 62 },
    melody: { program: 73, density: 0.8, volume: 66 }, drums: { kit: 0, style: "lofi", volume: 54 },
  },
  {
    slug: "tidewater", title: "Tidewater", energy: 1,
    genre_tags: ["ambient", "chill"], instrument_tags: ["guitar", "pad", "ocarina"], video_theme_tags: ["travel", "ocean", "summer"],
    tempo: 68, key: "E", mode: "major", seconds: 180, chordBars: 2,
    pad: { program: 89, volume: 66 }, bass: { program: 35, style: "whole", volume: 74 }, comp: { program: 27, style: "slow-arp", volume: 64 },
    melody: { program: 79, density: 0.75, volume: 64 },
  },
  {
    slug: "good-news", title: "Good News", energy: 3,
    genre_tags: ["pop", "upbeat"], instrument_tags: ["piano", "bells", "bass", "drums"], video_theme_tags: ["kids", "celebration", "product"],
    tempo: 118, key: "Bb", mode: "major", seconds: 140,
    pad: { program: 48, volume: 46 }, bass: { program: 33, style: "half" }, comp: { program: 0, style: "stabs", volume: 64 },
    melody: { program: 9, density: 1, volume: 50 }, drums: { kit: 0, style: "pop", volume: 56 },
  },
  {
    slug: "long-road", title: "Long Road", energy: 2,
    genre_tags: ["cinematic", "folk"], instrument_tags: ["guitar", "strings", "piano", "brushes"], video_theme_tags: ["travel", "story", "documentary"],
    tempo: 80, key: "G", mode: "mixolydian", seconds: 180,
    pad: { program: 49, volume: 60 }, bass: { program: 32, style: "half" }, comp: { program: 24, style: "pick" },
    melody: { program: 0, density: 1 }, drums: { kit: 40, style: "brush", volume: 54 },
  },
];
