/**
 * Subtitle lines from recognised words (pure). A line holds at most 35 characters (SPEC §9), never
 * splits a word, ends at a pause or at the end of a sentence, and takes its start and end from its
 * first and last word. Times are seconds in the media file, as scenes' text lines are (api/storyboard.ts).
 */
import { SCENE_LINE_MAX } from "../../api/limits";
import type { TextLine } from "../../api/storyboard";
import type { SpokenWord } from "./words";

export interface LineRules {
  /** Characters per line, counted as the scene text rule counts them (code points). */
  maxChars: number;
  /** A silence at least this long between two words ends the line. */
  pauseSeconds: number;
  /** A line on screen longer than this is hard to follow: the next word starts a new one. */
  maxLineSeconds: number;
  /** When a full line has a comma this far along (share of maxChars), it breaks after the comma instead. */
  clauseBreakShare: number;
  /** Hesitations ("um") are left out of captions unless this is set. */
  keepFillers: boolean;
}

export const DEFAULT_LINE_RULES: Readonly<LineRules> = Object.freeze({
  maxChars: SCENE_LINE_MAX,
  pauseSeconds: 0.5,
  maxLineSeconds: 6,
  clauseBreakShare: 0.5,
  keepFillers: false,
});

/** A stretch of a media file, in seconds (a scene's [start, end]). */
export interface TimeSpan {
  start: number;
  end: number;
}

const chars = (text: string) => [...text].length;
const round3 = (t: number) => Math.round(t * 1000) / 1000;
/** Ends a sentence: . ! ? … (and their CJK forms), closing quotes or brackets allowed after. */
const SENTENCE_END = /[.!?…。！？]["'”’»)\]]*$/u;
/** Ends a clause: , ; : and dashes. */
const CLAUSE_END = /[,;:،、—–]["'”’»)\]]*$/u;

const lineOf = (words: readonly SpokenWord[]): TextLine => ({
  start: round3(words[0]!.start),
  end: round3(words[words.length - 1]!.end),
  text: words.map((w) => w.text).join(" "),
});

/**
 * A word longer than a whole line (a URL read out, a long compound) is the one case a word must be cut:
 * into consecutive line-sized pieces with its time shared out by length.
 */
function overlongWord(word: SpokenWord, maxChars: number): TextLine[] {
  const letters = [...word.text];
  const pieces: TextLine[] = [];
  const span = word.end - word.start;
  for (let at = 0; at < letters.length; at += maxChars) {
    const piece = letters.slice(at, at + maxChars);
    const from = word.start + (span * at) / letters.length;
    const to = word.start + (span * (at + piece.length)) / letters.length;
    pieces.push({ start: round3(from), end: round3(to), text: piece.join("") });
  }
  return pieces;
}

/**
 * A line whose text runs past `maxChars` (a translation is often longer than its original) as consecutive
 * lines that keep to the rule: broken between words, at a clause or sentence end when one is near, with the
 * original line's time shared out by length. A line that fits comes back as it is (spaces tidied).
 */
export function fitLine(line: TextLine, maxChars: number = SCENE_LINE_MAX): TextLine[] {
  const text = line.text.replace(/\s+/g, " ").trim();
  if (chars(text) <= maxChars) return [{ ...line, text }];
  const total = chars(text);
  const span = line.end - line.start;
  let at = 0;
  const words: SpokenWord[] = text.split(" ").map((token) => {
    const start = line.start + (span * at) / total;
    at += chars(token);
    const end = line.start + (span * at) / total;
    at += 1;
    return { start, end, text: token, confidence: 1 };
  });
  return linesFromWords(words, { maxChars, pauseSeconds: Number.POSITIVE_INFINITY, maxLineSeconds: Number.POSITIVE_INFINITY, keepFillers: true });
}

/** Lines from words in time order. */
export function linesFromWords(words: readonly SpokenWord[], overrides: Partial<LineRules> = {}): TextLine[] {
  const rules = { ...DEFAULT_LINE_RULES, ...overrides };
  const spokenWords = words
    .filter((w) => w.text.trim() !== "")
    .map((w) => ({ ...w, text: w.text.trim() }))
    .sort((a, b) => a.start - b.start);
  const lines: TextLine[] = [];
  let current: SpokenWord[] = [];
  const flush = (count = current.length) => {
    if (count > 0) lines.push(lineOf(current.slice(0, count)));
    current = current.slice(count);
  };
  // a hesitation left out of the captions is still speech, not a pause
  let spokenUntil = Number.NEGATIVE_INFINITY;

  for (const word of spokenWords) {
    const silence = word.start - spokenUntil;
    spokenUntil = Math.max(spokenUntil, word.end);
    if (word.filler && !rules.keepFillers) continue;
    if (chars(word.text) > rules.maxChars) {
      flush();
      lines.push(...overlongWord(word, rules.maxChars));
      continue;
    }
    const previous = current[current.length - 1];
    if (previous) {
      const pause = silence >= rules.pauseSeconds;
      const sentenceEnded = SENTENCE_END.test(previous.text);
      const tooLong = word.end - current[0]!.start > rules.maxLineSeconds;
      if (pause || sentenceEnded || tooLong) flush();
    }
    if (current.length > 0 && chars(lineOf([...current, word]).text) > rules.maxChars) {
      // full: break after the last comma when it is far enough along, else before this word
      const clause = lastClauseEnd(current, rules);
      flush(clause ?? current.length);
      // what was carried over may still not leave room for this word
      if (current.length > 0 && chars(lineOf([...current, word]).text) > rules.maxChars) flush();
    }
    current.push(word);
  }
  flush();
  return lines;
}

/** How many words of a full line to keep when it should break after a comma, or undefined. */
function lastClauseEnd(current: readonly SpokenWord[], rules: LineRules): number | undefined {
  for (let i = current.length - 2; i >= 0; i--) {
    if (!CLAUSE_END.test(current[i]!.text)) continue;
    return chars(lineOf(current.slice(0, i + 1)).text) >= rules.maxChars * rules.clauseBreakShare ? i + 1 : undefined;
  }
  return undefined;
}

/** Lines cut to a span: those outside it are dropped, those across an edge end at the edge. */
export function clipLines(lines: readonly TextLine[], span: TimeSpan): TextLine[] {
  const out: TextLine[] = [];
  for (const line of lines) {
    const start = round3(Math.max(line.start, span.start));
    const end = round3(Math.min(line.end, span.end));
    if (end > start) out.push({ start, end, text: line.text });
  }
  return out;
}

/**
 * Each scene's text lines, from the words of its media file: a word belongs to every scene whose
 * [start, end] holds its middle (so a word cut by a scene edge is shown once, where most of it is),
 * the scene's words make its lines, and the lines are clipped to the scene. Answers one list per
 * scene, in the order given; a scene with no words gets none.
 */
export function linesForScenes(words: readonly SpokenWord[], scenes: readonly TimeSpan[], overrides: Partial<LineRules> = {}): TextLine[][] {
  return scenes.map((scene) => {
    const inside = words.filter((w) => {
      const middle = (w.start + w.end) / 2;
      return middle >= scene.start && middle < scene.end;
    });
    return clipLines(linesFromWords(inside, overrides), scene);
  });
}

/** A scene as the edit plays it: the stretch of its media kept, its text lines (media time), whether it is shown. */
export interface PlayedScene {
  trim_start: number;
  trim_end: number;
  text: readonly TextLine[];
  /** Hidden scenes are cut from the edit, their lines with them. */
  hidden?: boolean;
}

/**
 * The edit's subtitles in its own time (for subtitles.vtt and the preview's track): visible scenes
 * play one after another from `startSeconds` (an intro's length), each line clipped to its scene's
 * trim and moved to where the scene plays.
 */
export function timelineLines(scenes: readonly PlayedScene[], startSeconds = 0): TextLine[] {
  const out: TextLine[] = [];
  let at = startSeconds;
  for (const scene of scenes) {
    if (scene.hidden) continue;
    const span = { start: scene.trim_start, end: scene.trim_end };
    for (const line of clipLines(scene.text, span)) {
      out.push({ start: round3(at + line.start - span.start), end: round3(at + line.end - span.start), text: line.text });
    }
    at += Math.max(0, span.end - span.start);
  }
  return out;
}
