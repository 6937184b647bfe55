import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** Dates are ISO-8601 strings so the SQL stays portable between SQLite and PostgreSQL. */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  locale: string;
  email_verified_at: string | null;
  plan_id: string;
  render_notifications: number;
  show_wizard: number;
  ltd_tier: string | null;
  ltd_renew_at: string | null;
  appsumo_license_uuid: string | null;
  stripe_id: string | null;
  referral: string | null;
  clickid: string | null;
  total_used_storage: number;
  created_at: string;
  updated_at: string;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface PlansTable {
  id: string;
  nickname: string;
  amount: number;
  original_amount: number;
  interval: string | null;
  active: number;
  coupon: string | null;
  metadata: string;
  features: string;
  position: number;
}

export interface HandoffCodesTable {
  code_hash: string;
  user_id: number;
  expires_at: string;
  used_at: string | null;
}

export interface CaptchaSpentTable {
  signature: string;
  expires_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface Database {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  plans: PlansTable;
  handoff_codes: HandoffCodesTable;
  captcha_spent: CaptchaSpentTable;
  settings: SettingsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type PlanRow = Selectable<PlansTable>;
