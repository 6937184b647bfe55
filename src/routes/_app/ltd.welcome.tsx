import { createFileRoute } from "@tanstack/react-router";
import { LifetimeWelcomeView } from "../../features/lifetime/LifetimeWelcomeView";

/** SPEC §2 "lifetime welcome page" (its path is not shown): first name, last name, language and terms. */
export const Route = createFileRoute("/_app/ltd/welcome")({ component: LifetimeWelcomeView });
