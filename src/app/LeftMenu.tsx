import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { useConfig } from "./hooks";

/**
 * Home, project list, media, help, contact. Below 1023 px it hides behind a handle and opens on
 * hover (and on focus or a tap, for keyboards and touch screens).
 */
export function LeftMenu() {
  const { t } = useLingui();
  const config = useConfig();
  const [open, setOpen] = useState(false);
  // After choosing a page, close the menu and take focus to the page's content.
  const chosen = () => {
    setOpen(false);
    requestAnimationFrame(() => document.getElementById("main")?.focus());
  };
  return (
    <nav
      className="left-menu"
      aria-label={t`Main menu`}
      data-open={open || undefined}
      onMouseLeave={() => setOpen(false)}
    >
      <button type="button" className="left-menu-handle" aria-label={t`Open menu`} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <span aria-hidden="true">☰</span>
      </button>
      <ul>
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
