import { createFileRoute } from "@tanstack/react-router";
import { LibraryView } from "../../features/library/LibraryView";

export const Route = createFileRoute("/_app/library")({ component: LibraryView });
