import fs from "node:fs";
import * as tus from "tus-js-client";

export interface TusResult {
  url: string;
  id: string;
}

/** Uploads a file over the real tus protocol, as the app's worker does. */
export function tusUpload(
  base: string,
  token: string,
  file: string,
  options: { name?: string; stopAfterBytes?: number; uploadUrl?: string; chunkSize?: number } = {},
): Promise<TusResult> {
  const data = fs.readFileSync(file);
  return new Promise((resolve, reject) => {
    const upload: tus.Upload = new tus.Upload(data, {
      endpoint: `${base}/api/v1/uploads`,
      uploadUrl: options.uploadUrl,
      headers: { authorization: `Bearer ${token}` },
      metadata: { filename: options.name ?? file.split("/").pop()!, filetype: "video/mp4" },
      chunkSize: options.chunkSize ?? 64 * 1024,
      retryDelays: [],
      storeFingerprintForResuming: false,
      onProgress: (sent) => {
        if (options.stopAfterBytes && sent >= options.stopAfterBytes) {
          void upload.abort(false).then(() => reject(Object.assign(new Error("stopped"), { url: upload.url })));
        }
      },
      onSuccess: () => resolve({ url: upload.url!, id: upload.url!.split("/").pop()! }),
      onError: (error) => reject(error),
    });
    upload.start();
  });
}
