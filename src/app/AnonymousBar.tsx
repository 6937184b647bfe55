import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { AnonymousLanguagePicker } from "./LanguagePicker";
import { Logo } from "./Logo";

/** The top bar for visitors: the logo, one link (sign in or create account) and the language. */
export function AnonymousBar({ link }: { link: "login" | "register" | "none" }) {
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
        {link === "register" && (
          <Link to="/register" className="btn btn-ghost">
            <Trans>Create account</Trans>
          </Link>
        )}
      </div>
    </header>
  );
}
