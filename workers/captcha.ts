import { solveChallenge } from "altcha-lib";
import type { CaptchaChallenge } from "../api/config";

/** Solves an ALTCHA proof-of-work challenge and encodes the payload the server verifies. */
export async function solveAltcha(challenge: CaptchaChallenge): Promise<string | null> {
  const started = performance.now();
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  if (!solution) return null;
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
    took: Math.round(performance.now() - started),
  };
  return btoa(JSON.stringify(payload));
}
