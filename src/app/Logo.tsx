import { Link } from "@tanstack/react-router";

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label="Cutroom">
      <img src="/icons/logo.svg" alt="" width="28" height="28" />
      <span className="narrow-hidden">Cutroom</span>
    </Link>
  );
}
