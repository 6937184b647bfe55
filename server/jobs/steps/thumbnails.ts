import path from "node:path";
import { extractKeyframeThumbnails, extractPoster } from "../../media/thumbnails";
import { verifyOutput } from "../../media/verify";
import { atomically, atomicFolder } from "./atomic";
import { infoOf, outputKey, type MediaState } from "./media";
import type { Step } from "./step";

/** A video's keyframe thumbnails (`thumbs/`), or the poster (`thumb.jpg`) of an image or an audio file. */
export const thumbnailsStep: Step<MediaState> = {
  name: "thumbnails",
  reads: ["media.storage_key", "info"],
  writes: ["thumbs/", "thumb.jpg", "analysis.thumbnails", "media.thumbnail_key"],
  weight: 20,
  done({ media, analysis }) {
    if (media.kind === "video") return analysis.thumbnails.length > 0;
    // An image's poster is checked on the disk each time (its key is recorded only when the file is ready).
    if (media.kind === "image") return false;
    return !!media.thumbnail_key;
  },
  async run(state) {
    const { deps, ctx, source, media } = state;
    const info = infoOf(state);
    if (media.kind === "video") {
      const dir = deps.store.pathOf(outputKey(media, "thumbs"));
      const thumbs = await atomicFolder(dir, (tmp) => extractKeyframeThumbnails(source, tmp, { info, signal: ctx.signal }));
      await deps.store.commit(outputKey(media, "thumbs"));
      state.analysis.thumbnails = thumbs.map((t) => ({ time: t.time, key: outputKey(media, `thumbs/${path.basename(t.file)}`) }));
      state.media = { ...media, thumbnail_key: state.analysis.thumbnails[0]?.key ?? null };
      return;
    }
    const poster = outputKey(media, "thumb.jpg");
    const posterOk = (tmp: string) => verifyOutput(tmp, { format: "jpeg_pipe", video: true }, { signal: ctx.signal });
    if (!(await deps.store.exists(poster))) {
      await atomically(deps.store.pathOf(poster), (tmp) => extractPoster(source, tmp, { info, signal: ctx.signal }).then(() => undefined), posterOk);
      await deps.store.commit(poster);
    }
    state.media = { ...media, thumbnail_key: poster };
  },
};
