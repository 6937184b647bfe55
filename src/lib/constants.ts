/** Business constants of SPEC §9, named once. */
export const POLL_MS = 60_000;
export const EMAIL_VERIFY_POLL_MS = 10_000;
/** Video-site export (SPEC §9): the project every 30 s while exporting; the connection every 1 s, at most 180 times. */
export const VIDEO_SITE_POLL_MS = 30_000;
export const VIDEO_SITE_CONNECT_POLL_MS = 1_000;
export const VIDEO_SITE_CONNECT_POLL_TIMES = 180;
export const TOAST_MS = 2_500;
export const REGISTER_REDIRECT_MS = 1_500;
export const LOGIN_LOADING_RESET_MS = 500;
/** A checkout session's page opens this long after the session loads (SPEC §9 checkout redirect). */
export const CHECKOUT_REDIRECT_MS = 2_000;
export const MENU_BREAKPOINT_PX = 1023;
export const STORAGE_WARNING_RATIO = 0.9;
export const STORYBOARD_FIRST_BATCH = 25;
export const STORYBOARD_BATCH = 250;
export const PAGINATION_MIN_ITEMS = 5;

/** Where Cutroom is on social networks (below the registration form). Brand names: not translated. */
export const SOCIAL_LINKS = [
  { name: "YouTube", href: "https://www.youtube.com/@cutroom" },
  { name: "Instagram", href: "https://www.instagram.com/cutroom" },
  { name: "TikTok", href: "https://www.tiktok.com/@cutroom" },
  { name: "LinkedIn", href: "https://www.linkedin.com/company/cutroom" },
] as const;

/** Projects per page of GET /projects (the server's page size); "next" is disabled under it. */
export const PROJECTS_PAGE_SIZE = 20;
/** A progress value that means "done" (working_progress, upload percent). */
export const PROGRESS_DONE = 100;
/** The least progress shown while a project is being created (SPEC §2 Project preview). */
export const PROGRESS_MIN_SHOWN = 1;

/** What the upload screen accepts (SPEC §2 Upload screen). */
export const UPLOAD_ACCEPT = ["image/*", "audio/*", "video/*"] as const;
/** Give up reading a file's duration in the browser after this long; the server reads it again. */
export const MEDIA_METADATA_TIMEOUT_MS = 10_000;
/** Intro and outro lengths in seconds (the API's bounds; SPEC §9 leaves them open). */
export const INTRO_OUTRO_MAX_SECONDS = 60;
/** Optional intro title: the API's limit. */
export const PROJECT_TITLE_MAX = 255;

/** The media library's search waits this long after the last keystroke (SPEC §2 Media library). */
export const LIBRARY_SEARCH_DEBOUNCE_MS = 300;
/** After the last upload finishes, the library list comes back after this long (SPEC §9). */
export const LIBRARY_RETURN_AFTER_UPLOAD_MS = 200;

/** Storyboard drag to reorder: auto-scroll speed in px/s with the pointer at the scroller's edge (SPEC §2, sensitivity 400). */
export const DRAG_SCROLL_SENSITIVITY = 400;
