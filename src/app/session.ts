import { worker } from "../worker";
import { forgetPushDevice } from "./push";

let deliberate = false;

/** Exit from the user menu: the app goes to plain /login, with no "come back here" redirect. */
export async function signOut(): Promise<void> {
  deliberate = true;
  // While the token still works: the server forgets this device's push subscription.
  await forgetPushDevice();
  await worker.logout();
}

/** True once after a deliberate sign-out; a sign-out forced by the server returns false. */
export function takeDeliberateSignOut(): boolean {
  const was = deliberate;
  deliberate = false;
  return was;
}
