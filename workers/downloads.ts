import { z } from "zod";
import { API_BASE } from "../api/route";
import { classifyFailure, type Result } from "./status";

/** GET /projects/{id}/downloadrender asked for JSON: the signed link of the final render and its file name. */
export const DownloadLink = z.object({ url: z.string(), filename: z.string(), expires_at: z.string() });
export type DownloadLink = z.infer<typeof DownloadLink>;

/**
 * Downloads (SPEC §7 downloadrender, a direct link outside the contract's JSON routes): the worker asks with
 * the bearer header for the short-lived signed link, and the page hands that link to the browser, which
 * downloads it as a plain link (no header needed, resumable).
 */
export function createDownloadActions(token: () => Promise<string | undefined>, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  async function signedLink(path: string): Promise<Result<DownloadLink>> {
    const bearer = await token();
    let response: Response;
    let payload: unknown;
    try {
      response = await fetchImpl(API_BASE + path, { headers: { accept: "application/json", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) } });
      const text = await response.text();
      try {
        payload = text ? JSON.parse(text) : undefined;
      } catch {
        payload = text;
      }
    } catch {
      return { ok: false, failure: { kind: "network" } };
    }
    if (!response.ok) return { ok: false, failure: classifyFailure(response.status, path, payload) };
    const parsed = DownloadLink.safeParse(payload);
    return parsed.success ? { ok: true, data: parsed.data } : { ok: false, failure: { kind: "internal" } };
  }
  return {
    /** The final render (SPEC §7 downloadrender). */
    downloadLink: (projectId: number) => signedLink(`/projects/${projectId}/downloadrender`),
    /** The subtitles file (SPEC §7 subtitles): the original lines as WebVTT, or a translation's (`locale`), or SubRip. */
    subtitlesLink: (projectId: number, options: { locale?: string; format?: "vtt" | "srt" } = {}) => {
      const query = new URLSearchParams();
      if (options.locale) query.set("locale", options.locale);
      if (options.format) query.set("format", options.format);
      const search = query.toString();
      return signedLink(`/projects/${projectId}/subtitles${search ? `?${search}` : ""}`);
    },
  };
}
