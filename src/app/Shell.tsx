import { Outlet, useLocation, useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { ErrorsBanner } from "./ErrorsBanner";
import { useCurrentUser } from "./hooks";
import { LeftMenu } from "./LeftMenu";
import { TopBar } from "./TopBar";

/** The signed-in frame. Leaves for /login the moment the stored user goes away (logout, 401). */
export function Shell() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    if (user === null) void navigate({ to: "/login", search: { redirect: location.href } });
    else if (user && !user.email_verified_at) void navigate({ to: "/verify-email", search: {} });
  }, [user, navigate, location.href]);

  if (!user) return null;
  return (
    <div className="shell">
      <TopBar user={user} />
      <ErrorsBanner />
      <div className="shell-body">
        <LeftMenu />
        <main className="shell-main" id="main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
