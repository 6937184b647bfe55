/** The id of the JSON block in which the server hands the app shell its public set-up (issue 18). */
export const PAGE_CONFIG_ID = "cutroom-config";

/** The set-up as a JSON block to put in the shell's <head>; `<` is escaped so no text can close the element. */
export function pageConfigScript(config: unknown): string {
  const json = JSON.stringify(config).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  return `<script id="${PAGE_CONFIG_ID}" type="application/json">${json}</script>`;
}
