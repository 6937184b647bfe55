import { sign, verifySignature } from "./signed-links";

/** How long a media link stays valid: long enough to watch a preview, short enough to leak little. */
export const FILE_LINK_TTL_S = 6 * 3600;
/** How long a download link stays valid: time to start (and resume) a download, little to leak. */
export const DOWNLOAD_LINK_TTL_S = 3600;
const MAX_NAME = 150;

/**
 * A file name safe for a `Content-Disposition` header and for any file system: no control characters,
 * path separators, quotes or reserved characters, no leading dots, at most 150 characters.
 * Keeps non-ASCII letters (they travel in RFC 5987 `filename*`).
 */
export function safeFileName(name: string, ext: string): string {
  const base = name
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "")
    .replace(/[\\/:*?"<>|;%]/g, "_")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  const cut = Array.from(base).slice(0, MAX_NAME).join("").trim();
  return `${cut || "cutroom"}.${ext}`;
}

/** `attachment; filename="ascii fallback"; filename*=UTF-8''…` (RFC 6266 / RFC 5987) for a name from safeFileName. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  if (ascii === fileName) return `attachment; filename="${ascii}"`;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Media elements cannot send a bearer header, so files are reached by short-lived links
 * signed for one storage key. The api token never appears in a URL.
 */
export function fileLinks(secret: string, basePath = "/api/v1/files") {
  // Round the expiry so a page that polls gets the same URL (and the browser's cache) for a while.
  const expiry = (now: number) => Math.ceil(now / 1000 / 3600) * 3600 + FILE_LINK_TTL_S;
  return {
    /** When media links made at `now` expire: the same for an hour, so an answer kept that long holds fresh links. */
    expiry,
    url(key: string, now = Date.now()): string {
      const expires = expiry(now);
      return `${basePath}/${key}?expires=${expires}&signature=${sign(secret, `file|${key}|${expires}`)}`;
    },
    verify(key: string, expires: number, signature: string, now = Date.now()): boolean {
      return expires * 1000 > now && verifySignature(secret, `file|${key}|${expires}`, signature);
    },
    /**
     * A download link: the file name is part of what is signed, so the link names the file it was made
     * for and nothing else; it expires after DOWNLOAD_LINK_TTL_S.
     */
    downloadUrl(key: string, fileName: string, now = Date.now()): { url: string; expires: number } {
      const expires = Math.floor(now / 1000) + DOWNLOAD_LINK_TTL_S;
      const signature = sign(secret, `download|${key}|${expires}|${fileName}`);
      return { url: `${basePath}/${key}?expires=${expires}&download=${encodeURIComponent(fileName)}&signature=${signature}`, expires };
    },
    verifyDownload(key: string, fileName: string, expires: number, signature: string, now = Date.now()): boolean {
      return expires * 1000 > now && verifySignature(secret, `download|${key}|${expires}|${fileName}`, signature);
    },
  };
}

export type FileLinks = ReturnType<typeof fileLinks>;
