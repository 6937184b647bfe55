import { useEffect, useMemo } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import type { Project } from "../../../api/projects";
import type { TextLine } from "../../../api/storyboard";
import { db, type SubtitleSetRow } from "../../db";
import { worker } from "../../worker";

/**
 * The project's ready translated subtitle sets (issue 14, SPEC §3 Subtitle set), from the mirror: the embedded
 * language picker and the preview player's captions menu list them beside the original lines. With `refresh`
 * the sets are asked for once on opening, so a translation made elsewhere shows without visiting Translate.
 */
export function useReadyTranslations(project: Pick<Project, "id" | "locale">, refresh: boolean): SubtitleSetRow[] {
  const sets = useLiveQuery(() => db.subtitleSets.where("project_id").equals(project.id).toArray(), [project.id], [] as SubtitleSetRow[]);
  useEffect(() => {
    if (refresh) void worker.refreshSubtitles(project.id);
  }, [project.id, refresh]);
  return useMemo(() => readyTranslations(sets, project.locale), [sets, project.locale]);
}

/** Ready sets in another language than the spoken one, with lines, in language order. */
export function readyTranslations<S extends { locale: string; status: string; lines: readonly unknown[] }>(sets: readonly S[], spoken: string | null): S[] {
  return sets.filter((s) => s.status === "ready" && s.locale !== spoken && s.lines.length > 0).sort((a, b) => a.locale.localeCompare(b.locale));
}

const stamp = (seconds: number) => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

/** A WebVTT track of lines (the player's track of a translation; `&`, `<` and `>` as character references). */
export function vttOf(lines: readonly Pick<TextLine, "start" | "end" | "text">[]): string {
  const cues = lines
    .filter((l) => l.end > l.start && l.text.trim())
    .map((l) => `${stamp(l.start)} --> ${stamp(l.end)}\n${l.text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n+/g, " ")}`);
  return `WEBVTT\n\n${cues.join("\n\n")}\n`;
}

/** Object URLs of each set's WebVTT track, by locale, released when the sets change or the view goes. */
export function useTrackUrls(sets: readonly SubtitleSetRow[]): Map<string, string> {
  const urls = useMemo(() => new Map(sets.map((s) => [s.locale, URL.createObjectURL(new Blob([vttOf(s.lines)], { type: "text/vtt" }))])), [sets]);
  useEffect(() => () => urls.forEach((url) => URL.revokeObjectURL(url)), [urls]);
  return urls;
}
