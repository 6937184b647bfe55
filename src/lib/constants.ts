/** Business constants of SPEC §9, named once. */
export const POLL_MS = 60_000;
export const EMAIL_VERIFY_POLL_MS = 10_000;
export const TOAST_MS = 2_500;
export const REGISTER_REDIRECT_MS = 1_500;
export const LOGIN_LOADING_RESET_MS = 500;
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
