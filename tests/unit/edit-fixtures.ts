import type { Project } from "../../api/projects";
import { DEFAULT_SETTINGS } from "../../server/domain/project-settings";

/** A processed project as GET /projects/{id} returns it (server defaults, Preview Ready, raw preview made). */
export function makeProject(over: Partial<Project> = {}): Project {
  return {
    id: 41,
    name: "Team talk",
    title: null,
    locale: "en-US",
    status: "Preview Ready",
    failure: null,
    is_new: 0,
    is_queued: 0,
    deleted_at: null,
    thumbnailPath: null,
    duration_in_seconds: 120,
    duration_out_seconds: 96,
    total_filesize: 1_000_000,
    scenes_count: 12,
    type: "project",
    cuts_project: 0,
    audioonly: 0,
    working_progress: 100,
    working_progress_raw: 100,
    raw_preview_render: 1,
    export_url: "/files/render.mp4",
    export_raw_url: "/files/raw.mp4",
    final_render: 0,
    needs_render: 0,
    created_at: "2026-11-01T10:00:00.000Z",
    updated_at: "2026-11-01T10:00:00.000Z",
    ...DEFAULT_SETTINGS,
    ...over,
  };
}
