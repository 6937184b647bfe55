import type { z } from "zod";
import type { TrackBody } from "../../api/analytics";

export interface AnalyticsDeps {
  /** ANALYTICS_URL and ANALYTICS_DOMAIN; null: analytics off (the default), nothing is sent anywhere. */
  config: { url: string; domain: string } | null;
  publicUrl: string;
  log: { warn: (fields: Record<string, unknown>, message: string) => void };
}

const SEND_TIMEOUT_MS = 5_000;

/**
 * A page path as analytics may see it: no query or fragment (one-time codes and tokens travel there), and every
 * id-like segment (digits, or a long token) replaced by ":id", so no project, share link or user can be told apart.
 */
export function analyticsPath(path: string): string {
  const bare = path.replace(/[?#].*$/, "");
  const segments = bare
    .split("/")
    .slice(1, 8)
    .map((s) => (/^\d+$/.test(s) || /^[A-Za-z0-9_-]{16,}$/.test(s) ? ":id" : s.replace(/[^A-Za-z0-9._-]/g, "").slice(0, 40)));
  return `/${segments.join("/")}`;
}

/**
 * The `track()` port's server side (SPEC §7 events): off by default; with ANALYTICS_URL, each event goes to a
 * self-hosted Plausible-compatible server's Events API (POST /api/event). The browser only ever talks to this
 * server. Plausible counts visitors from the User-Agent and the client's address, which it hashes with a daily salt
 * and does not store; nothing else about the person is sent.
 */
export function createAnalytics(deps: AnalyticsDeps) {
  return {
    enabled: deps.config !== null,
    /** Answers at once; the event is sent in the background and a failure only logged. */
    track(event: z.output<typeof TrackBody>, client: { userAgent: string | undefined; ip: string }): { accepted: boolean } {
      const config = deps.config;
      if (!config) return { accepted: false };
      const body = {
        name: event.name,
        url: `${deps.publicUrl}${analyticsPath(event.path)}`,
        domain: config.domain,
        ...(Object.keys(event.props).length ? { props: event.props } : {}),
      };
      void fetch(`${config.url}/api/event`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": client.userAgent || "Cutroom", "x-forwarded-for": client.ip },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      })
        .then(async (res) => {
          if (!res.ok) deps.log.warn({ event: event.name, status: res.status }, "analytics event refused");
          await res.body?.cancel();
        })
        .catch((error: unknown) => deps.log.warn({ event: event.name, reason: error instanceof Error ? error.name : String(error) }, "analytics event not sent"));
      return { accepted: true };
    },
  };
}
export type Analytics = ReturnType<typeof createAnalytics>;
