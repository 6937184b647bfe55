import zlib from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ResponseSerializationError } from "fastify-type-provider-zod";
import type { z } from "zod";

/** Issue 18's settings for API answers (app.ts registers @fastify/compress with the same). */
export const API_BROTLI_QUALITY = 5;
export const API_COMPRESS_THRESHOLD = 1024;
const GZIP_LEVEL = 6;

type Encoding = "br" | "gzip";

/**
 * The encoding to send for an Accept-Encoding header, as @fastify/compress picks it: brotli or gzip (`x-gzip` and
 * `*` stand for it), the client's highest q-value winning and brotli on a tie; none when neither is acceptable.
 */
export function negotiateEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name = "", ...params] = part.split(";").map((p) => p.trim());
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name === "x-gzip" ? "gzip" : name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get("*") ?? 0;
  const [best] = (["br", "gzip"] as const).filter((name) => weight(name) > 0).sort((a, b) => weight(b) - weight(a));
  return best;
}

/**
 * A JSON answer made ready once and sent as often as asked: checked and stripped by the route's response schema
 * (as the zod serializer does for every answer), serialized, and compressed at most once per encoding.
 */
export class PreparedJson<T> {
  private readonly encoded = new Map<Encoding, Buffer>();
  private declare readonly answer: T;

  private constructor(readonly json: string) {}

  /** `request` names the route in the error when the answer breaks its schema (a 500, as from the serializer). */
  static of<S extends z.ZodType>(schema: S, value: z.input<S>, request: FastifyRequest): PreparedJson<z.input<S>> {
    const checked = schema.safeParse(value);
    if (!checked.success) throw new ResponseSerializationError(request.method, request.routeOptions.url ?? request.url, { cause: checked.error });
    return new PreparedJson(JSON.stringify(checked.data));
  }

  /** Memory held: the JSON and its encoded copies. */
  get bytes(): number {
    let bytes = this.json.length;
    for (const body of this.encoded.values()) bytes += body.length;
    return bytes;
  }

  send(request: FastifyRequest, reply: FastifyReply, status: number): FastifyReply {
    const encoding = this.json.length >= API_COMPRESS_THRESHOLD ? negotiateEncoding(request.headers["accept-encoding"]) : undefined;
    reply.status(status).type("application/json; charset=utf-8").header("vary", "accept-encoding");
    if (!encoding) return reply.send(this.json);
    // A Content-Encoding already set tells @fastify/compress to leave the body alone.
    return reply.header("content-encoding", encoding).send(this.encode(encoding));
  }

  private encode(encoding: Encoding): Buffer {
    let body = this.encoded.get(encoding);
    if (!body) {
      body =
        encoding === "br"
          ? zlib.brotliCompressSync(this.json, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: API_BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.json.length } })
          : zlib.gzipSync(this.json, { level: GZIP_LEVEL });
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

/**
 * Prepared answers kept per name (what was asked, e.g. a project's slice) while their stamp (what the answer depends
 * on, read fresh for every request) stays the same; a new stamp makes the answer again. Requests that miss together
 * share one making. Bounded by bytes, the least recently used going first.
 */
interface Kept<T> {
  stamp: string;
  answer: Promise<PreparedJson<T>>;
  /** The answer once made (what counts against the bound). */
  ready?: PreparedJson<T>;
}

export class PreparedAnswers<T> {
  private readonly entries = new Map<string, Kept<T>>();

  constructor(private readonly maxBytes: number) {}

  get(name: string, stamp: string, make: () => Promise<PreparedJson<T>>): Promise<PreparedJson<T>> {
    const kept = this.entries.get(name);
    this.entries.delete(name);
    if (kept?.stamp === stamp) {
      this.entries.set(name, kept);
      return kept.answer;
    }
    const entry: Kept<T> = { stamp, answer: make() };
    this.entries.set(name, entry);
    entry.answer.then(
      (ready) => {
        entry.ready = ready;
        this.evict();
      },
      () => this.entries.get(name) === entry && this.entries.delete(name),
    );
    return entry.answer;
  }

  /** Least recently used first out until the ready answers fit (one still being made counts as nothing yet). */
  private evict(): void {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.ready?.bytes ?? 0;
    for (const [name, entry] of this.entries) {
      if (total <= this.maxBytes) break;
      if (!entry.ready) continue;
      this.entries.delete(name);
      total -= entry.ready.bytes;
    }
  }
}
