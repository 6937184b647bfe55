import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { AnonymousLanguagePicker } from "./LanguagePicker";
import { Logo } from "./Logo";
import { useConfig } from "./hooks";

/** The top bar for visitors: the logo, one link (sign in or create account) and the language. */
export function AnonymousBar({ link }: { link: "login" | "register" | "none" }) {
  const config = useConfig();
  return (
    <header className="top-bar">
      <Logo />
      <div className="top-bar-end">
        <AnonymousLanguagePicker />
        {link === "login" && (
          <Link to="/login" className="btn btn-ghost">
            <Trans>Sign in</Trans>
          </Link>
        )}
        {link === "register" && config && !config.betaHost && (
          <Link to="/register" className="btn btn-ghost">
            <Trans>Create account</Trans>
          </Link>
        )}
      </div>
    </header>
  );
}
