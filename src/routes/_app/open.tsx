import { createFileRoute } from "@tanstack/react-router";
import { ProjectListView } from "../../features/projects/ProjectListView";

export const Route = createFileRoute("/_app/open")({
  validateSearch: (search: Record<string, unknown>): { page?: number } => {
    const page = Number(search.page);
    return Number.isInteger(page) && page > 1 ? { page } : {};
  },
  component: ProjectListView,
});
