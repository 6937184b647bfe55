import { sign, verifySignature } from "./signed-links";

/** How long a media link stays valid: long enough to watch a preview, short enough to leak little. */
export const FILE_LINK_TTL_S = 6 * 3600;

/**
 * Media elements cannot send a bearer header, so files are reached by short-lived links
 * signed for one storage key. The api token never appears in a URL.
 */
export function fileLinks(secret: string, basePath = "/api/v1/files") {
  return {
    url(key: string, now = Date.now()): string {
      // Round the expiry so a page that polls gets the same URL (and the browser's cache) for a while.
      const expires = Math.ceil(now / 1000 / 3600) * 3600 + FILE_LINK_TTL_S;
      return `${basePath}/${key}?expires=${expires}&signature=${sign(secret, `file|${key}|${expires}`)}`;
    },
    verify(key: string, expires: number, signature: string, now = Date.now()): boolean {
      return expires * 1000 > now && verifySignature(secret, `file|${key}|${expires}`, signature);
    },
  };
}

export type FileLinks = ReturnType<typeof fileLinks>;
