import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useRouterState } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { useConfig } from "./hooks";

/**
 * Home, project list, media, help, contact. Below 1023 px it hides behind a handle and opens on
 * hover (and on keyboard focus or a tap, for keyboards and touch screens). The open panel sits
 * beside the handle, never under it, so the tap that opens it cannot land on a link (issue 18);
 * Escape, a press outside and a change of page close it.
 */
export function LeftMenu() {
  const { t } = useLingui();
  const config = useConfig();
  const [open, setOpen] = useState(false);
  const nav = useRef<HTMLElement>(null);
  const handle = useRef<HTMLButtonElement>(null);
  const path = useRouterState({ select: (state) => state.location.pathname });
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!nav.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      if (nav.current?.contains(document.activeElement)) handle.current?.focus();
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);
  // After choosing a page, close the menu and take focus to the page's content.
  const chosen = () => {
    setOpen(false);
    requestAnimationFrame(() => document.getElementById("main")?.focus());
  };
  return (
    <nav
      ref={nav}
      className="left-menu"
      aria-label={t`Main menu`}
      data-open={open || undefined}
      onMouseLeave={() => setOpen(false)}
    >
      <button
        ref={handle}
        type="button"
        className="left-menu-handle"
        aria-label={t`Open menu`}
        aria-expanded={open}
        aria-controls="left-menu-links"
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">☰</span>
      </button>
      <ul id="left-menu-links">
        <li>
          <Link to="/" activeOptions={{ exact: true }} onClick={chosen}>
            <Trans>Home</Trans>
          </Link>
        </li>
        <li>
          <Link to="/open" onClick={chosen}>
            <Trans>Project list</Trans>
          </Link>
        </li>
        <li>
          <Link to="/library" onClick={chosen}>
            <Trans>Media</Trans>
          </Link>
        </li>
        <li>
          <a href={config?.links.help} target="_blank" rel="noopener noreferrer">
            <Trans>Help</Trans>
          </a>
        </li>
        <li>
          <a href={config?.links.contact}>
            <Trans>Contact</Trans>
          </a>
        </li>
      </ul>
    </nav>
  );
}
