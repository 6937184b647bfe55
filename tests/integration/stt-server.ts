import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A local stand-in for a Whisper-compatible speech service, speaking OpenAI's protocol for tests:
 * `POST /v1/audio/transcriptions`, multipart/form-data with `file`, `model`, `language`,
 * `response_format` (json, text, verbose_json) and `timestamp_granularities[]` (word, segment);
 * bearer keys; a request size limit (25 MB like OpenAI's, answered 413 with OpenAI's error JSON).
 *
 * It does not understand speech: it decodes the audio it is sent and answers one "word" per burst of
 * sound (sound separated by at least 0.3 s of quiet), with the burst's true start and end, so a test
 * can check that timings and the offsets of split files come through. It can be told to fail with a
 * status (500, 429 with Retry-After…) or to hang without answering.
 */

export interface SttRequestLog {
  bytes: number;
  status: number;
  model?: string;
  language?: string;
  responseFormat?: string;
  granularities: string[];
  fileName?: string;
  fileType?: string;
  /** The audio's first bytes are an Ogg page carrying an Opus stream. */
  oggOpus: boolean;
  /** Seconds of audio decoded from the file. */
  audioSeconds?: number;
  authorization?: string;
}

export interface FakeSttOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Largest request body accepted (default 25 MB). */
  maxRequestBytes?: number;
  /** The text of the n-th burst of a request (default "speech"). */
  say?: (index: number) => string;
}

const MB = 1024 * 1024;
const SAMPLE_RATE = 16_000;
const FRAME = 160; // 10 ms
/** Frames louder than this are sound (the adapter's audio arrives with little noise). */
const SOUND_DB = -45;
/** Quiet shorter than this stays inside a burst (the pauses between words of a sentence). */
const BRIDGE_SECONDS = 0.3;

const openAiError = (message: string, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } });

/** A multipart/form-data body → its parts. */
function parseMultipart(body: Buffer, boundary: string): { name: string; fileName?: string; type?: string; data: Buffer }[] {
  const parts: { name: string; fileName?: string; type?: string; data: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(at + delimiter.length + 2, next - 2); // CRLF after the delimiter, CRLF before the next
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString("utf8");
      const name = /name="([^"]*)"/.exec(headers)?.[1] ?? "";
      const fileName = /filename="([^"]*)"/.exec(headers)?.[1];
      const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim();
      parts.push({ name, fileName, type, data: part.subarray(headerEnd + 4) });
    }
    at = next;
  }
  return parts;
}

/** Decoded 16 kHz mono samples of an uploaded file, or undefined when ffmpeg cannot read it. */
async function decode(data: Buffer): Promise<Int16Array | undefined> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "fake-stt-"));
  const file = path.join(dir, "upload");
  await fs.promises.writeFile(file, data);
  try {
    const pcm = await new Promise<Buffer>((resolve, reject) =>
      execFile(
        "ffmpeg",
        ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", file, "-ac", "1", "-ar", String(SAMPLE_RATE), "-f", "s16le", "pipe:1"],
        { encoding: "buffer", maxBuffer: 512 * MB },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    return new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.byteLength / 2));
  } catch {
    return undefined;
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Bursts of sound: [start, end] in seconds. */
function bursts(samples: Int16Array): [number, number][] {
  const found: [number, number][] = [];
  let open: [number, number] | undefined;
  for (let f = 0; f * FRAME < samples.length; f++) {
    let sum = 0;
    const end = Math.min(samples.length, (f + 1) * FRAME);
    for (let i = f * FRAME; i < end; i++) sum += samples[i]! * samples[i]!;
    const db = 10 * Math.log10(sum / (end - f * FRAME) / (32768 * 32768) + 1e-12);
    if (db < SOUND_DB) continue;
    const t0 = (f * FRAME) / SAMPLE_RATE;
    const t1 = end / SAMPLE_RATE;
    if (open && t0 - open[1] < BRIDGE_SECONDS) open[1] = t1;
    else {
      open = [t0, t1];
      found.push(open);
    }
  }
  return found;
}

export async function startFakeStt(options: FakeSttOptions = {}) {
  const requests: SttRequestLog[] = [];
  let maxRequestBytes = options.maxRequestBytes ?? 25 * MB;
  const failures: { status: number; retryAfter?: string }[] = [];
  let hangs = 0;
  let answerWithoutTimings = false;
  const sockets = new Set<import("node:net").Socket>();

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const log: SttRequestLog = { bytes: 0, status: 0, granularities: [], oggOpus: false, authorization: req.headers.authorization };
    const chunks: Buffer[] = [];
    let tooLarge = Number(req.headers["content-length"] ?? 0) > maxRequestBytes;
    req.on("data", (chunk: Buffer) => {
      log.bytes += chunk.length;
      if (log.bytes > maxRequestBytes) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on("end", () => {
      void (async () => {
        requests.push(log);
        const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          log.status = status;
          json(res, status, body, headers);
        };
        if (req.method !== "POST" || req.url?.split("?")[0] !== "/v1/audio/transcriptions") {
          return answer(404, openAiError(`Invalid URL (${req.method} ${req.url})`, "invalid_request_error"));
        }
        if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
          return answer(401, openAiError("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"));
        }
        if (tooLarge) {
          return answer(413, openAiError(`Maximum content size limit (${maxRequestBytes}) exceeded.`, "server_error"));
        }
        if (hangs > 0) {
          hangs--;
          log.status = -1; // never answered
          return;
        }
        const failure = failures.shift();
        if (failure) {
          return answer(failure.status, openAiError(`Injected failure ${failure.status}`, "server_error"), failure.retryAfter ? { "retry-after": failure.retryAfter } : {});
        }
        const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/.exec(req.headers["content-type"] ?? "");
        if (!boundary) return answer(400, openAiError("Expected multipart/form-data", "invalid_request_error"));
        const parts = parseMultipart(Buffer.concat(chunks), boundary[1] ?? boundary[2]!);
        const field = (name: string) => parts.find((p) => p.name === name && p.fileName === undefined)?.data.toString("utf8");
        const file = parts.find((p) => p.name === "file" && p.fileName !== undefined);
        log.model = field("model");
        log.language = field("language");
        log.responseFormat = field("response_format");
        log.granularities = parts.filter((p) => p.name === "timestamp_granularities[]").map((p) => p.data.toString("utf8"));
        log.fileName = file?.fileName;
        log.fileType = file?.type;
        if (!log.model) return answer(400, openAiError("you must provide a model parameter", "invalid_request_error"));
        if (!file) return answer(400, openAiError("you must provide a file", "invalid_request_error"));
        log.oggOpus = file.data.subarray(0, 4).toString("latin1") === "OggS" && file.data.subarray(0, 200).includes("OpusHead");
        const samples = await decode(file.data);
        if (!samples) return answer(400, openAiError("Invalid file format.", "invalid_request_error"));
        const duration = samples.length / SAMPLE_RATE;
        log.audioSeconds = duration;
        const words = bursts(samples).map(([start, end], i) => ({ word: options.say?.(i) ?? "speech", start: Math.round(start * 100) / 100, end: Math.round(end * 100) / 100 }));
        const text = words.map((w) => w.word).join(" ");
        if (answerWithoutTimings || log.responseFormat !== "verbose_json") return answer(200, { text });
        const segments = words.map((w, id) => ({ id, seek: 0, start: w.start, end: w.end, text: ` ${w.word}`, avg_logprob: -0.2, no_speech_prob: 0.01 }));
        answer(200, {
          task: "transcribe",
          language: log.language ?? "english",
          duration,
          text,
          ...(log.granularities.includes("word") ? { words } : {}),
          ...(log.granularities.length === 0 || log.granularities.includes("segment") ? { segments } : {}),
        });
      })();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The next `times` requests that pass the key and size checks answer `status`. */
    failNext(status: number, times = 1, retryAfter?: string) {
      for (let i = 0; i < times; i++) failures.push({ status, retryAfter });
    },
    /** The next `times` requests get no answer at all. */
    hangNext(times = 1) {
      hangs += times;
    },
    setMaxRequestBytes(bytes: number) {
      maxRequestBytes = bytes;
    },
    /** Answers `{ text }` only, as a service that ignores response_format would. */
    answerWithoutTimings(on = true) {
      answerWithoutTimings = on;
    },
    reset() {
      requests.length = 0;
      failures.length = 0;
      hangs = 0;
      answerWithoutTimings = false;
      maxRequestBytes = options.maxRequestBytes ?? 25 * MB;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
