/**
 * What the clients of outside HTTP services (the Whisper-compatible speech service, LibreTranslate) share:
 * waiting between retries, reading Retry-After, quoting a refusal without its address or key, naming a
 * connection failure.
 */
import { MediaAbortedError } from "../media/ffmpeg";

const SERVICE_MESSAGE_CHARS = 200;

/** Waits, or rejects as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new MediaAbortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new MediaAbortedError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Retry-After as seconds or an HTTP date → milliseconds, or undefined. */
export function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/**
 * The service's own words about a refusal — OpenAI's `{error: {message}}`, LibreTranslate's `{error: "…"}`,
 * or `detail`/`message` — short and on one line; the text itself when it is not JSON.
 */
export async function serviceMessage(response: Response): Promise<string> {
  try {
    const text = await response.text();
    let message = text;
    try {
      const body = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
      const candidate = typeof body.error === "object" && body.error !== null ? body.error.message : (body.error ?? body.detail ?? body.message);
      if (typeof candidate === "string") message = candidate;
    } catch {
      // not JSON: the text itself
    }
    return message.replace(/\s+/g, " ").trim().slice(0, SERVICE_MESSAGE_CHARS);
  } catch {
    return "";
  }
}

/** ECONNREFUSED, ENOTFOUND…: what went wrong with the connection, without the address. */
export function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === "string" ? cause.code : "connection failed";
}
