import Dexie from "dexie";
import { useLiveQuery } from "dexie-react-hooks";
import type { Project } from "../../../api/projects";
import type { Scene } from "../../../api/scenes";
import { db, type StoryboardMeta } from "../../db";
import { STORYBOARD_FIRST_BATCH } from "../../lib/constants";

const NO_SCENES: Scene[] = [];

/** The project, its scenes in storyboard order and how much of them the mirror holds. */
export function useStoryboardData(projectId: number) {
  const project = useLiveQuery(() => db.projects.get(projectId), [projectId]) as Project | undefined;
  const inOrder = () => db.scenes.where("[project_id+order]").between([projectId, Dexie.minKey], [projectId, Dexie.maxKey]);
  // The first screen comes from a small read, so a big mirrored storyboard opens as fast as a small one.
  const first = useLiveQuery(() => inOrder().limit(STORYBOARD_FIRST_BATCH).toArray(), [projectId]);
  const all = useLiveQuery(() => inOrder().toArray(), [projectId]);
  const scenes = all ?? first;
  const meta = useLiveQuery(async () => {
    const row = await db.meta.get(`storyboard:${projectId}`);
    return row && "loading" in row.value ? (row.value as StoryboardMeta) : null;
  }, [projectId]);
  return { project, scenes: scenes ?? NO_SCENES, scenesLoaded: scenes !== undefined, meta };
}
