import { MIN_SCENE_SECONDS, type TextLine } from "../../../../api/storyboard";

const round = (t: number) => Math.round(t * 1000) / 1000;

/**
 * A new empty line at the end of the scene. It takes the span left after the last line (up to
 * trim_end); when none is left, the last line's span is split evenly between it and the new one.
 */
export function withAddedLine(lines: readonly TextLine[], trimStart: number, trimEnd: number): TextLine[] {
  const last = lines.at(-1);
  if (!last) return [{ start: round(trimStart), end: round(trimEnd), text: "" }];
  const from = Math.max(last.end, trimStart);
  if (trimEnd - from >= MIN_SCENE_SECONDS) return [...lines, { start: round(from), end: round(trimEnd), text: "" }];
  const middle = round((last.start + last.end) / 2);
  return [...lines.slice(0, -1), { ...last, end: middle }, { start: middle, end: last.end, text: "" }];
}

/** Characters as the 35-character rule counts them (code points, so an emoji is one). */
export const lineLength = (text: string) => [...text].length;
