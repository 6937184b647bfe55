/**
 * Recognised words, as every speech engine hands them over (pure: no I/O). Times are seconds in the
 * transcribed media file.
 */

export interface SpokenWord {
  start: number;
  end: number;
  /** The word as shown in a caption: no surrounding spaces, punctuation kept when the engine gives it. */
  text: string;
  /** 0..1, the engine's own confidence (pocketsphinx: posterior probability; Whisper: word probability). */
  confidence: number;
  /** A hesitation ("um", "uh", "hmm"…): kept so a cut can remove it, left out of captions. */
  filler?: boolean;
}

/** Pure hesitations per language (lower case, no punctuation); words that also carry meaning are left out. */
const FILLERS: Record<string, readonly string[]> = {
  en: ["um", "uh", "uhm", "umm", "uh-huh", "hmm", "hm", "mm", "mmm", "er", "erm", "ah"],
  pt: ["é", "éé", "hã", "hum", "ãh", "ah", "eh", "uh", "hmm"],
  es: ["eh", "ehm", "em", "mmm", "ah", "hmm"],
  fr: ["euh", "heu", "hum", "hmm"],
  it: ["ehm", "eh", "mmm", "hmm"],
  de: ["äh", "ähm", "öh", "hm", "hmm", "mhm"],
};

/** The language part of a tag: "pt-BR" → "pt". */
export const baseLanguage = (language: string) => language.toLowerCase().split(/[-_]/)[0] ?? "";

/** Whether a word is a hesitation in this language (surrounding punctuation ignored). */
export function isFiller(text: string, language: string): boolean {
  const bare = text.toLowerCase().replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, "");
  return (FILLERS[baseLanguage(language)] ?? []).includes(bare);
}

const round3 = (t: number) => Math.round(t * 1000) / 1000;

/**
 * Words in time order with sane times: finite, start ≤ end, no negative times, text trimmed, empty
 * words dropped, fillers flagged for the language, and `offset` added (a piece of a longer file).
 */
export function normaliseWords(words: readonly SpokenWord[], language: string, offset = 0): SpokenWord[] {
  const out: SpokenWord[] = [];
  for (const word of words) {
    const text = word.text.replace(/\s+/g, " ").trim();
    if (!text || !Number.isFinite(word.start) || !Number.isFinite(word.end)) continue;
    const start = Math.max(0, round3(word.start + offset));
    const end = Math.max(start, round3(word.end + offset));
    const confidence = Number.isFinite(word.confidence) ? Math.min(1, Math.max(0, word.confidence)) : 0;
    const filler = word.filler || isFiller(text, language);
    out.push(filler ? { start, end, text, confidence, filler } : { start, end, text, confidence });
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * Words fitted inside measured speech: a word that reaches into a silence around it is cut back to the
 * speech it overlaps (engines let a first word swallow the pause before it). A word that overlaps no
 * speech at all (a whisper under the threshold) keeps its times. `speech`: sorted, not overlapping.
 */
export function fitWordsToSpeech(words: readonly SpokenWord[], speech: readonly { start: number; end: number }[]): SpokenWord[] {
  return words.map((word) => {
    const overlapping = speech.filter((s) => s.end > word.start && s.start < word.end);
    if (overlapping.length === 0) return word;
    const start = Math.max(word.start, overlapping[0]!.start);
    const end = Math.min(word.end, overlapping[overlapping.length - 1]!.end);
    return end > start ? { ...word, start: round3(start), end: round3(end) } : word;
  });
}
