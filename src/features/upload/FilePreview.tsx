import type { UploadRow } from "../../db";
import { useObjectUrl } from "./hooks";

/** A small picture of the file: the image itself, a video's first frame, or an icon for audio. */
export function FilePreview({ upload }: { upload: UploadRow }) {
  const url = useObjectUrl(upload.id, upload.file);
  if (url && upload.kind === "image") return <img className="file-preview" src={url} alt="" />;
  if (url && upload.kind === "video") {
    // "#t=" asks for a frame just after the start instead of a black first frame.
    return <video className="file-preview" src={`${url}#t=0.1`} muted preload="metadata" aria-hidden="true" tabIndex={-1} />;
  }
  return (
    <span className="file-preview file-preview-icon" aria-hidden="true">
      <svg className="icon" viewBox="0 0 24 24">
        {upload.kind === "audio" ? (
          <path d="M9 18V5l11-2v13M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0zm11-2a3 3 0 1 1-6 0 3 3 0 0 1 6 0z" />
        ) : upload.kind === "image" ? (
          <path d="M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6" />
        ) : (
          <path d="M3 6h13v12H3zM16 10l5-3v10l-5-3" />
        )}
      </svg>
    </span>
  );
}
