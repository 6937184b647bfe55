import { createFileRoute } from "@tanstack/react-router";
import { ProjectListView } from "../../features/projects/ProjectListView";

export const Route = createFileRoute("/_app/open")({ component: ProjectListView });
