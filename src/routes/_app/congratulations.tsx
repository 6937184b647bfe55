import { createFileRoute } from "@tanstack/react-router";
import { CongratulationsView } from "../../features/lifetime/CongratulationsView";

/** SPEC §2: /congratulations, the page after a lifetime deal's payment. */
export const Route = createFileRoute("/_app/congratulations")({ component: CongratulationsView });
