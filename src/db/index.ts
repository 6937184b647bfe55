import Dexie, { type EntityTable } from "dexie";
import type { User } from "../../api/user";
import type { PublicConfig } from "../../api/config";

/** The signed-in user, as views read it. There is at most one row, with id "me". */
export interface UserRow extends User {
  key: "me";
}

/** The api token lives apart from the user: only the sync worker reads it. */
export interface AuthRow {
  key: "token";
  token: string;
}

export interface MetaRow {
  key: "config";
  value: PublicConfig;
}

export const DB_NAME = "cutroom";

/** The IndexedDB mirror. Views read it with useLiveQuery; the sync worker writes it. */
export class CutroomDb extends Dexie {
  users!: EntityTable<UserRow, "key">;
  auth!: EntityTable<AuthRow, "key">;
  meta!: EntityTable<MetaRow, "key">;

  constructor(name = DB_NAME) {
    super(name);
    this.version(1).stores({ users: "key", auth: "key", meta: "key" });
  }

  /** The signed-in user, or null when nobody is signed in. */
  currentUser = async (): Promise<UserRow | null> => (await this.users.get("me")) ?? null;
  config = async (): Promise<PublicConfig | null> => (await this.meta.get("config"))?.value ?? null;

  async signOutLocally(): Promise<void> {
    await this.transaction("rw", this.users, this.auth, async () => {
      await this.users.clear();
      await this.auth.clear();
    });
  }
}

export const db = new CutroomDb();
