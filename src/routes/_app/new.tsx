import { createFileRoute } from "@tanstack/react-router";
import { WizardView } from "../../features/wizard/WizardView";

/** ?step=2 is the settings step; no step is the upload step. */
export const Route = createFileRoute("/_app/new")({
  validateSearch: (search: Record<string, unknown>): { step?: 2 } => (Number(search.step) === 2 ? { step: 2 } : {}),
  component: WizardView,
});
