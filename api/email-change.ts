/** Where the link in the e-mail-change confirmation leads: /email-changed?status=… (kept apart from the schemas: the route is in the app's first load). */
export const EMAIL_CHANGE_STATUSES = ["changed", "expired", "taken"] as const;
export type EmailChangeStatus = (typeof EMAIL_CHANGE_STATUSES)[number];
