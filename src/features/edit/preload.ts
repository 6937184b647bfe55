import { liveQuery } from "dexie";
import { db, type StoryboardMeta } from "../../db";
import { STORYBOARD_FIRST_BATCH } from "../../lib/constants";
import { worker } from "../../worker";

/** The first batch is in the mirror (or the whole storyboard, when it is shorter). */
const firstBatchIn = (meta: StoryboardMeta | undefined) => !!meta && meta.loaded >= Math.min(STORYBOARD_FIRST_BATCH, meta.total);

/**
 * SPEC §2 Project preview: going to edit waits until the first 25 scenes are preloaded. Starts the
 * storyboard load and resolves once its first batch is stored (the rest keeps loading), or when the load
 * ends, whichever comes first; a failed load still resolves, and the storyboard says what went wrong.
 */
export function preloadStoryboard(projectId: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const startedAt = new Date().toISOString();
    let finished = false;
    let subscription: { unsubscribe(): void } | undefined;
    const done = () => {
      if (finished) return;
      finished = true;
      subscription?.unsubscribe();
      resolve();
    };
    // Only this load's batches count: an older meta row may describe scenes that have changed since.
    subscription = liveQuery(() => db.meta.get(`storyboard:${projectId}`)).subscribe({
      next: (row) => {
        if (row && "loaded" in row.value && row.value.fetchedAt >= startedAt && firstBatchIn(row.value as StoryboardMeta)) done();
      },
      error: () => done(),
    });
    if (finished) subscription.unsubscribe();
    void worker.loadStoryboard(projectId).finally(done);
  });
}
