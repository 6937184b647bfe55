import fs from "node:fs";
import path from "node:path";
import PO from "pofile";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { generateMessageId } from "@lingui/message-utils/generateMessageId";
import type { Plugin } from "vite";

/**
 * Issue 18: the pages a visitor sees before signing in (sign in, register, password reset, pricing, a
 * shared video) need a sixth of the catalog. `import("…/messages.po?public")` compiles only the messages
 * whose source is one of those pages' modules (the .po's `#:` origins); the app loads the whole catalog
 * when someone signs in, and a message missing from the subset makes it load the whole one at once.
 */
export const PUBLIC_SOURCES = /^src\/(features\/(auth|billing|promotion|share)\/|app\/|ui\/|routes\/(?!_app)|features\/errors\.ts|lib\/|i18n\/)/;

const SUFFIX = "?public";

export function publicCatalog(): Plugin {
  return {
    name: "cutroom-public-catalog",
    enforce: "pre",
    async resolveId(source, importer) {
      if (!source.endsWith(".po" + SUFFIX) || !importer) return null;
      return path.resolve(path.dirname(importer), source);
    },
    load(id) {
      if (!id.endsWith(".po" + SUFFIX)) return null;
      const file = id.slice(0, -SUFFIX.length);
      this.addWatchFile(file);
      return `export const messages = JSON.parse(${JSON.stringify(JSON.stringify(publicMessages(file)))});`;
    },
  };
}

/** The compiled messages of one catalog whose origins are all or partly in the public pages' modules. */
export function publicMessages(poFile: string) {
  const catalog = PO.parse(fs.readFileSync(poFile, "utf8"));
  const messages: Record<string, ReturnType<typeof compileMessage>> = {};
  for (const item of catalog.items) {
    if (!item.references.some((ref) => PUBLIC_SOURCES.test(ref))) continue;
    const id = item.flags["js-lingui-explicit-id"] ? item.msgid : generateMessageId(item.msgid, item.msgctxt ?? undefined);
    messages[id] = compileMessage(item.msgstr[0] || item.msgid);
  }
  return messages;
}
