import { createFileRoute } from "@tanstack/react-router";
import { HomeView } from "../../features/home/HomeView";

export const Route = createFileRoute("/_app/")({ component: HomeView });
