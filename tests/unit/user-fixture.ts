import type { User } from "../../api/user";

/** A signed-in free user as GET /user answers it, for worker tests; override what a test is about. */
export const testUser = (overrides: Partial<User> = {}): User => ({
  id: 7,
  name: "Ana Silva",
  first_name: "Ana",
  last_name: "Silva",
  email: "ana@example.com",
  email_verified_at: "2026-11-01T10:00:00.000Z",
  locale: "en",
  video_tier: 0,
  created_at: "2026-11-01T09:00:00.000Z",
  total_used_storage: 0,
  max_storage: 5 * 1024 ** 3,
  render_notifications: 1,
  show_wizard: 0,
  ltd_tier: null,
  ltd_renew_at: null,
  appsumo_license_uuid: null,
  stripe_id: null,
  plan: { id: "free", nickname: "Free" },
  features: [],
  ...overrides,
});
