/** Where people watch an uploaded video (SPEC §3 youtubeUrl). */
export const youtubeWatchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;
