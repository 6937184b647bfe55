import type { FastifyReply } from "fastify";
import type send from "@fastify/send";
import type { ErrorBody } from "../../api/errors";
import type { FileStore } from "../storage/local";

export const fileNotFound = { message: "Not found", code: "not_found" } satisfies ErrorBody;

type SendResult = Awaited<ReturnType<typeof send>>;

/**
 * The answer to a file `send` could not serve, in the API's error shape: a range past the end is 416 with
 * the file's size in Content-Range (so a client resumes from what it has); anything else is not found.
 */
export function replySendError(reply: FastifyReply, result: Extract<SendResult, { type: "error" }>) {
  if (result.statusCode === 416) {
    const range = (result.headers as Record<string, string | undefined>)["Content-Range"];
    if (range) reply.header("content-range", range);
    return reply.status(416).send({ message: "The requested range is outside the file", code: "range_not_satisfiable" } satisfies ErrorBody);
  }
  return reply.status(404).send(fileNotFound);
}

/**
 * STORAGE=s3 (issue 19): a file whose app link checked out is fetched from the bucket itself, by a presigned
 * GET that lives S3_PRESIGN_SECONDS (Range and all); the redirect is never cached. Undefined in local mode.
 */
export async function redirectToBucket(reply: FastifyReply, store: Pick<FileStore, "signedGet">, key: string, contentDisposition?: string) {
  if (!store.signedGet) return undefined;
  const url = await store.signedGet(key, contentDisposition ? { contentDisposition } : {});
  return reply.status(302).header("location", url).header("cache-control", "private, no-store").header("referrer-policy", "no-referrer").send();
}
