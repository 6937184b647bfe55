import { MEDIA_METADATA_TIMEOUT_MS } from "../../lib/constants";

/**
 * A video's or audio's length in seconds, read by the browser from a hidden media element. A file the
 * browser cannot read gives 0; the server reads every file again and refuses what it cannot use.
 */
export function readDuration(file: Blob, kind: "video" | "audio"): Promise<number> {
  return new Promise((resolve) => {
    const element = document.createElement(kind);
    const url = URL.createObjectURL(file);
    let finished = false;
    const done = (seconds: number) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      element.removeAttribute("src");
      element.load();
      URL.revokeObjectURL(url);
      resolve(Number.isFinite(seconds) && seconds > 0 ? seconds : 0);
    };
    const timer = setTimeout(() => done(0), MEDIA_METADATA_TIMEOUT_MS);
    element.preload = "metadata";
    element.muted = true;
    element.addEventListener("loadedmetadata", () => done(element.duration), { once: true });
    element.addEventListener("error", () => done(0), { once: true });
    element.src = url;
  });
}
