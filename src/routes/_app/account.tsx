import { createFileRoute } from "@tanstack/react-router";
import { AccountView } from "../../features/account/AccountView";

export const Route = createFileRoute("/_app/account")({ component: AccountView });
