import { createHash, createHmac, randomBytes } from "node:crypto";

/**
 * Share links (SPEC §6): a token is the HMAC of a random 128-bit nonce under the app secret, so the link stays the
 * same until revoked, the owner can be shown it again, and the database holds only the nonce and the token's hash
 * (a copy of the database alone opens no share page). Revoking drops the nonce: the old link is not found.
 */
export function shareTokens(secret: string) {
  const tokenOf = (projectId: number, nonce: string) => createHmac("sha256", secret).update(`share|${projectId}|${nonce}`).digest("base64url");
  const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
  return {
    tokenOf,
    hashOf,
    /** A new link for a project: the nonce to store and the hash to find it by. */
    fresh(projectId: number): { share_nonce: string; share_token_hash: string } {
      const nonce = randomBytes(16).toString("base64url");
      return { share_nonce: nonce, share_token_hash: hashOf(tokenOf(projectId, nonce)) };
    },
  };
}

export type ShareTokens = ReturnType<typeof shareTokens>;
