import { DEFAULT_THUMBNAIL } from "../../lib/project-state";

/** The project's picture, or the default one when it has none (or its link has expired). */
export function ProjectThumbnail({ src }: { src: string | null }) {
  return (
    <img
      className="project-thumbnail"
      src={src ?? DEFAULT_THUMBNAIL}
      alt=""
      loading="lazy"
      onError={(event) => {
        if (!event.currentTarget.src.endsWith(DEFAULT_THUMBNAIL)) event.currentTarget.src = DEFAULT_THUMBNAIL;
      }}
    />
  );
}
