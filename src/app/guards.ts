import { redirect, type ParsedLocation } from "@tanstack/react-router";
import { currentUser } from "../db/mirror";

/** Only same-site paths are followed after sign-in. */
export const safeRedirect = (value: unknown): string | undefined =>
  typeof value === "string" && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : undefined;

/** Signed-out users go to /login?redirect=…; unverified users to /verify-email. */
export async function requireVerifiedUser(location: ParsedLocation) {
  const user = await currentUser();
  if (!user) throw redirect({ to: "/login", search: { redirect: location.href } });
  if (!user.email_verified_at) throw redirect({ to: "/verify-email", search: {} });
  return user;
}
