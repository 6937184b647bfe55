import { describe, expect, it } from "vitest";
import { SCENE_LINE_MAX } from "../../api/limits";
import { fitLine } from "../../server/speech/lines";
import { editedTranslation, parsePieceKey, pieceKey, setLines } from "../../server/services/subtitle-sets";

const chars = (text: string) => [...text].length;

describe("a translation longer than a line", () => {
  const line = { start: 10, end: 14, text: "Hoy vamos a hablar de cómo se cortan los silencios en un vídeo" };

  it("plays as consecutive lines of at most 35 characters, no word cut, time shared by length", () => {
    const pieces = fitLine(line);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(chars(piece.text)).toBeLessThanOrEqual(SCENE_LINE_MAX);
    expect(pieces.map((p) => p.text).join(" ")).toBe(line.text);
    expect(pieces[0]!.start).toBe(10);
    expect(pieces.at(-1)!.end).toBe(14);
    for (let i = 1; i < pieces.length; i++) expect(pieces[i]!.start).toBeGreaterThanOrEqual(pieces[i - 1]!.end);
    // the longer piece gets the longer time
    const [a, b] = pieces;
    expect((a!.end - a!.start) / chars(a!.text)).toBeCloseTo((b!.end - b!.start) / chars(b!.text), 1);
  });

  it("breaks after a comma when one is far enough along", () => {
    const pieces = fitLine({ start: 0, end: 3, text: "Primero lo primero, vamos a ver cómo funciona" });
    expect(pieces[0]!.text).toBe("Primero lo primero,");
  });

  it("leaves a line that fits as it is", () => {
    expect(fitLine({ start: 1, end: 2, text: " Hola  mundo " })).toEqual([{ start: 1, end: 2, text: "Hola mundo" }]);
  });

  it("shows in a translated set as lines with piece keys, and one piece's edit keeps the others", () => {
    const original = [{ key: "7@10000", scene_id: 3, start: 10, end: 14, text: "Today we talk about cutting silences in a video" }];
    const row = { original: 0, status: "ready", translations: JSON.stringify({ "7@10000": { source: original[0]!.text, text: line.text, edited: 0 } }) };
    const lines = setLines(row, original);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.map((l) => l.key)).toEqual(lines.map((_, i) => pieceKey("7@10000", i)));
    expect(lines.every((l) => l.scene_id === 3 && chars(l.text) <= SCENE_LINE_MAX)).toBe(true);

    const second = parsePieceKey(lines[1]!.key);
    expect(second).toEqual({ key: "7@10000", piece: 1 });
    const next = editedTranslation(line.text, [{ piece: second.piece, text: "los silencios de un vídeo" }]);
    expect(next.startsWith(lines[0]!.text)).toBe(true);
    expect(next.endsWith("los silencios de un vídeo")).toBe(true);
    // emptying a piece removes it; a whole-line edit replaces all
    expect(editedTranslation(line.text, [{ piece: 0, text: "" }])).toBe(lines.slice(1).map((l) => l.text).join(" "));
    expect(editedTranslation(line.text, [{ piece: null, text: "Corto" }])).toBe("Corto");
    expect(parsePieceKey("7@10000")).toEqual({ key: "7@10000", piece: null });
  });
});
