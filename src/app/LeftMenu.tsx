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
          <Link to="/" activeOptions={{ exact: true }} onClick={() => setOpen(false)}>
            <Trans>Home</Trans>
          </Link>
        </li>
        <li>
          <Link to="/open" onClick={() => setOpen(false)}>
            <Trans>Project list</Trans>
          </Link>
        </li>
        <li>
          <Link to="/library" onClick={() => setOpen(false)}>
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
