import type { TimelineFormat } from "../api/timelines";
import { API_BASE } from "../api/route";
import { classifyFailure, type Result } from "./status";

/** A timeline file as the server answered it: the bytes and the name it gave in Content-Disposition. */
export type TimelineDownload = { blob: Blob; filename: string };

/** Percent-decodes an RFC 5987 value; undefined when the escapes are broken. */
function decodeExtValue(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * The file name of a Content-Disposition header: `filename*` (RFC 5987/6266, UTF-8 percent-encoded) first,
 * then the plain `filename` (quoted or not); undefined when neither is there. Any path part is dropped.
 */
export function dispositionFileName(header: string | null): string | undefined {
  if (!header) return undefined;
  let name: string | undefined;
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^';\s]*)'[^']*'([^;\s]+)/i.exec(header);
  if (extended && /^utf-8$/i.test(extended[1]!)) name = decodeExtValue(extended[2]!);
  if (!name) {
    const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
    const bare = quoted ? undefined : /(?:^|;)\s*filename\s*=\s*([^";\s]+)/i.exec(header);
    name = quoted ? quoted[1]!.replace(/\\(.)/g, "$1") : bare?.[1];
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : undefined;
}

/**
 * Timelines for desktop editors (issue 13, GET /projects/{id}/timeline, an attachment rather than JSON): the
 * worker fetches the file with the bearer header and hands the page the bytes and the server's file name.
 */
export function createTimelineActions(token: () => Promise<string | undefined>, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  return {
    async timelineFile(projectId: number, format: TimelineFormat): Promise<Result<TimelineDownload>> {
      const path = `/projects/${projectId}/timeline?format=${encodeURIComponent(format)}`;
      const bearer = await token();
      let response: Response;
      try {
        response = await fetchImpl(API_BASE + path, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
        if (response.ok) {
          const blob = await response.blob();
          return { ok: true, data: { blob, filename: dispositionFileName(response.headers.get("content-disposition")) ?? `timeline.${format}` } };
        }
        const text = await response.text();
        let payload: unknown;
        try {
          payload = text ? JSON.parse(text) : undefined;
        } catch {
          payload = text;
        }
        return { ok: false, failure: classifyFailure(response.status, path, payload) };
      } catch {
        return { ok: false, failure: { kind: "network" } };
      }
    },
  };
}
