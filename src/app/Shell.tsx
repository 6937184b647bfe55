import { Outlet, useNavigate, useRouter } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { ErrorsBanner } from "./ErrorsBanner";
import { PromotionBanner } from "../features/promotion/PromotionBanner";
import { useCurrentUser } from "./hooks";
import { LeftMenu } from "./LeftMenu";
import { TopBar } from "./TopBar";
import { takeDeliberateSignOut } from "./session";
import { useProgressStream } from "./progress-stream";
import { loadToastRegion } from "../ui/Toast";

/** The signed-in frame. Leaves for /login the moment the stored user goes away (logout, 401). */
export function Shell() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const router = useRouter();
  const leaving = useRef(false);
  useProgressStream();

  // The signed-in app works offline: the toasts' code is fetched while the connection is there, once the
  // page is idle, so the first toast raised offline shows (signed-out pages load it with their first toast).
  useEffect(() => {
    const preload = () => void loadToastRegion().catch(() => undefined);
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(preload, { timeout: 3_000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(preload, 1_000);
    return () => window.clearTimeout(id);
  }, []);

  useEffect(() => {
    if (leaving.current || user === undefined) return;
    if (user === null) {
      leaving.current = true;
      const redirect = takeDeliberateSignOut() ? undefined : router.state.location.href;
      void navigate({ to: "/login", search: { redirect }, replace: true });
    } else if (!user.email_verified_at) {
      leaving.current = true;
      void navigate({ to: "/verify-email", search: {}, replace: true });
    }
  }, [user, navigate, router]);

  if (!user) return null;
  return (
    <div className="shell">
      <TopBar user={user} />
      <ErrorsBanner />
      <PromotionBanner user={user} />
      <div className="shell-body">
        <LeftMenu />
        <main className="shell-main" id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
