import { db } from "../../db";
import { DEFAULT_WIZARD_SETTINGS, type WizardSettings } from "./settings";

/** What the wizard keeps across a reload (issue 18): step 2's settings and the files whose language was chosen. */
export interface SavedWizard {
  settings: WizardSettings;
  languageChosen: string[];
}

const KEY = "wizard";

/** The saved wizard, on top of today's defaults (a field added since it was saved keeps its default); null when none. */
export async function loadWizard(): Promise<SavedWizard | null> {
  const row = await db.meta.get(KEY);
  if (row?.key !== KEY) return null;
  const saved = row.value;
  const settings = Object.fromEntries(
    (Object.keys(DEFAULT_WIZARD_SETTINGS) as (keyof WizardSettings)[]).map((k) => {
      const value = saved.settings?.[k];
      const fallback = DEFAULT_WIZARD_SETTINGS[k];
      const sameType = value !== undefined && (value === null || fallback === null || typeof value === typeof fallback);
      return [k, sameType ? value : fallback];
    }),
  ) as unknown as WizardSettings;
  return { settings, languageChosen: Array.isArray(saved.languageChosen) ? saved.languageChosen.filter((id) => typeof id === "string") : [] };
}

export async function saveWizard(saved: SavedWizard): Promise<void> {
  await db.meta.put({ key: KEY, value: { settings: saved.settings, languageChosen: [...saved.languageChosen] } });
}

/** Once the project is created or the wizard cancelled, a reload starts afresh. */
export async function clearWizard(): Promise<void> {
  await db.meta.delete(KEY);
}
