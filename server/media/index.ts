// The one place that runs ffmpeg/ffprobe. Nothing here knows about HTTP, users or the database.
export * from "./ffmpeg";
export * from "./probe";
export * from "./analyze";
export * from "./thumbnails";
export * from "./proxy";
export * from "./render";
export * from "./verify";
