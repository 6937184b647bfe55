import type { ReactNode } from "react";
import { RouterProvider } from "react-aria-components";
import { useRouter } from "@tanstack/react-router";

/**
 * react-aria's links (a MenuItem with href, such as the user menu's "My plan") navigate inside the app
 * through TanStack Router's history instead of reloading the page; links to other sites stay native.
 */
export function AriaRouter({ children }: { children: ReactNode }) {
  const router = useRouter();
  return <RouterProvider navigate={(href) => router.history.push(href)}>{children}</RouterProvider>;
}
