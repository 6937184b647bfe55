/**
 * Imports deals-marketplace licence codes (issue 16):
 *   npm run licences:import -- <codes.csv|codes.txt> --product appsumo --tier 1
 * A .txt holds one code a line; a .csv its codes in the column named code (or licence/license/key), else
 * the first column. Codes are stored as SHA-256 hashes in the server's database (DATA_DIR, as `npm start`
 * uses it); importing the same file again changes nothing. A redeemed code gives the account the lifetime
 * tier `{product}_tier{N}` with the limits of the lifetime plan `ltd_tier{N}`, which the plans catalogue must
 * have. The report gives counts only: a code is never printed back in full.
 */
import fs from "node:fs";
import { loadConfig } from "../server/config";
import { migrate, openDatabase } from "../server/db";
import { importLicences, licenceCounts } from "../server/db/licences";
import { LICENCE_PRODUCT, licenceTier, parseLicenceFile } from "../server/domain/licences";
import { loadCatalogue } from "../server/payments/catalogue";

function fail(message: string): never {
  console.error(`licences:import: ${message}`);
  console.error("usage: npm run licences:import -- <codes.csv|codes.txt> --product <name> --tier <1-3>");
  process.exit(2);
}

function parseArgs(argv: string[]) {
  let file: string | undefined;
  let product: string | undefined;
  let tier: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (name: string) => {
      const inline = arg.startsWith(`${name}=`) ? arg.slice(name.length + 1) : undefined;
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) fail(`${name} needs a value`);
      return next;
    };
    if (arg === "--product" || arg.startsWith("--product=")) product = value("--product");
    else if (arg === "--tier" || arg.startsWith("--tier=")) tier = value("--tier");
    else if (arg.startsWith("--")) fail(`unknown option ${arg}`);
    else if (file) fail("give one file");
    else file = arg;
  }
  if (!file) fail("the codes file is missing");
  if (!product || !LICENCE_PRODUCT.test(product)) fail("--product must be lower-case letters and digits (e.g. appsumo)");
  if (product === "ltd") fail("--product ltd is the provider's own lifetime deal; name the marketplace");
  const n = Number(tier);
  if (!Number.isInteger(n) || n < 1 || n > 99) fail("--tier must be a whole number (1, 2 or 3)");
  return { file, product, tier: n };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const catalogue = loadCatalogue(config.payments.plansFile);
  const plan = `ltd_tier${args.tier}`;
  if (!catalogue.plans.some((p) => p.id === plan)) fail(`the plans catalogue has no lifetime plan ${plan} for tier ${args.tier}`);
  let text: string;
  try {
    text = fs.readFileSync(args.file, "utf8");
  } catch (error) {
    fail(`cannot read ${args.file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { codes, invalid } = parseLicenceFile(text);
  const db = openDatabase(config);
  try {
    await migrate(db);
    const result = await importLicences(db, codes, args.product, args.tier);
    console.log(`Licences for ${licenceTier(args.product, args.tier)} (limits of ${plan}) in ${config.databaseFile}:`);
    console.log(`  read ${codes.length} code(s): ${result.imported} imported, ${result.unchanged} already imported, ${result.duplicates} listed twice in the file`);
    if (result.conflicting) console.log(`  ${result.conflicting} code(s) were already imported under another product or tier: left unchanged`);
    if (invalid.length) console.log(`  ${invalid.length} line(s) skipped, not a code (lines ${invalid.slice(0, 20).join(", ")}${invalid.length > 20 ? ", …" : ""})`);
    const counts = await licenceCounts(db, args.product);
    for (const row of counts) console.log(`  ${licenceTier(args.product, row.tier)}: ${row.count} ${row.status}`);
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(`licences:import: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
