/// <reference lib="webworker" />
import * as Comlink from "comlink";
import { db } from "../src/db";
import { createActions } from "./actions";
import { createApiClient } from "./api-client";

const call = createApiClient({
  getToken: async () => (await db.auth.get("token"))?.token,
  onSignedOut: () => db.signOutLocally(),
});

Comlink.expose(createActions(db, call));
