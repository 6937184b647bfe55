/// <reference lib="webworker" />
import * as Comlink from "comlink";
import { db } from "../src/db";
import { createActions } from "./actions";
import { createApiClient } from "./api-client";

let reachable: boolean | undefined;
/** Remembers whether the server answered; a server that answers again sends the queued edits. */
function noteReachable(now: boolean) {
  if (now === reachable) return;
  const before = reachable;
  reachable = now;
  void db.meta.put({ key: "connection", value: { reachable: now, at: new Date().toISOString() } });
  if (now && before === false) void actions.syncOutbox();
}

const call = createApiClient({
  getToken: async () => (await db.auth.get("token"))?.token,
  onSignedOut: () => db.signOutLocally(),
  onReachable: noteReachable,
});

const actions = createActions(db, call);
Comlink.expose(actions);

// The connection is back: uploads cut off by the network carry on without waiting for the page, and
// the outbox sends the edits made offline (the page also asks when the tab shows again).
self.addEventListener("online", () => {
  void actions.resumeUploads();
  void actions.resumeRecordings();
  void actions.syncOutbox();
});

// Edits queued before a reload or a crash are sent as soon as this worker starts.
void actions.syncOutbox();
