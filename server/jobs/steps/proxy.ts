import { updateMedia } from "../../db/media";
import { makeProxy } from "../../media/proxy";
import { verifyOutput } from "../../media/verify";
import { atomically } from "./atomic";
import { infoOf, outputKey, type MediaState } from "./media";
import type { Step } from "./step";

/** The raw preview (`proxy.mp4`) of a video or audio file, verified before it is put in place; images have none. */
export const proxyStep: Step<MediaState> = {
  name: "proxy",
  reads: ["media.storage_key", "info"],
  writes: ["proxy.mp4", "media.proxy_key", "media.raw_preview_render"],
  weight: 60,
  async done({ media, deps }) {
    if (media.kind === "image") return true;
    const key = outputKey(media, "proxy.mp4");
    return media.proxy_key === key && media.raw_preview_render === 1 && (await deps.store.exists(key));
  },
  async run(state, progress) {
    const { deps, ctx, source } = state;
    const info = infoOf(state);
    const proxy = outputKey(state.media, "proxy.mp4");
    if (!(await deps.store.exists(proxy))) {
      await atomically(
        deps.store.pathOf(proxy),
        (tmp) => makeProxy(source, tmp, { info, signal: ctx.signal, onProgress: (f: number) => void progress(f).then(() => ctx.heartbeat()) }),
        (tmp) => verifyOutput(tmp, { format: "mov", video: info.kind === "video", audio: info.hasAudio, durationSeconds: info.durationSeconds, decode: true }, { signal: ctx.signal }),
      );
      await deps.store.commit(proxy);
    }
    await updateMedia(deps.db, state.media.id, { proxy_key: proxy, raw_preview_render: 1, progress: 60 });
    state.media = { ...state.media, proxy_key: proxy, raw_preview_render: 1 };
  },
};
