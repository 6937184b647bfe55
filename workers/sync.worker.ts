/// <reference lib="webworker" />
import * as Comlink from "comlink";
import { db } from "../src/db";
import { createActions } from "./actions";
import { createApiClient } from "./api-client";

const call = createApiClient({
  getToken: async () => (await db.auth.get("token"))?.token,
  onSignedOut: () => db.signOutLocally(),
});

const actions = createActions(db, call);
Comlink.expose(actions);

// The connection is back: uploads cut off by the network carry on without waiting for the page.
self.addEventListener("online", () => void actions.resumeUploads());
