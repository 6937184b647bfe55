import { createHash } from "node:crypto";

/**
 * Deals-marketplace licence codes (issue 16): pure rules shared by the operator's import script and the
 * redeem call. A code is compared by the SHA-256 of its normalised form (spaces dropped, upper case), so a
 * code typed with a stray space or in lower case still matches, and the table holds no usable code.
 */
export const LICENCE_PRODUCT = /^[a-z0-9]{1,32}$/;
export const LICENCE_CODE_MAX = 128;

export const normaliseLicenceCode = (code: string) => code.replace(/\s+/g, "").toUpperCase();

export const licenceCodeHash = (code: string) => createHash("sha256").update(normaliseLicenceCode(code)).digest("hex");

/** SPEC §3: "The partner licence tier prefix is {product}_tier". */
export const licenceTier = (product: string, tier: number) => `${product}_tier${tier}`;

/**
 * The codes in an operator's file: a .txt with one code a line, or a .csv whose column is named code,
 * licence/license or key (any case), else its first column. Quotes are dropped; empty lines are skipped.
 */
export function parseLicenceFile(text: string): { codes: string[]; invalid: number[] } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const cells = (line: string) => line.split(/[,;\t]/).map((c) => c.trim().replace(/^"(.*)"$/, "$1").trim());
  let column = 0;
  let start = 0;
  const header = lines[0] ? cells(lines[0]) : [];
  const named = header.findIndex((h) => /^(code|codes|licen[cs]e|licen[cs]e[ _-]?(code|key)|key|redemption[ _-]?code)$/i.test(h));
  if (named >= 0) {
    column = named;
    start = 1;
  }
  const codes: string[] = [];
  const invalid: number[] = [];
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const code = normaliseLicenceCode(cells(line)[column] ?? "");
    if (!code || code.length > LICENCE_CODE_MAX || !/^[\x21-\x7e]+$/.test(code)) invalid.push(i + 1);
    else codes.push(code);
  }
  return { codes, invalid };
}

/** The marketplace's upgrade page for a licence: `{uuid}` in the operator's URL is the licence's uuid. */
export const upgradeLink = (template: string, uuid: string) => template.replaceAll("{uuid}", encodeURIComponent(uuid));
