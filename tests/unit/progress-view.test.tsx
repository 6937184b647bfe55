import { cleanup, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { makeProject } from "./edit-fixtures";

vi.mock("@tanstack/react-router", () => ({ Link: ({ children }: { children: ReactNode }) => <a href="/open">{children}</a>, useNavigate: () => vi.fn() }));
vi.mock("../../src/worker", () => ({ worker: {} }));

import { db } from "../../src/db";
import { RenderingView } from "../../src/features/preview/RenderingView";
import { ProjectStateBanner } from "../../src/features/edit/ProjectStateBanner";
import { ProjectStatusBadge } from "../../src/features/projects/ProjectStatus";
import { progressPhase } from "../../src/lib/progress-phase";

const wrap = (ui: ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => db.meta.delete("progressStream"));
afterEach(cleanup);

describe("progress a user can trust (issue 13)", () => {
  it("names the phase: waiting in the queue, creating, rendering", () => {
    expect(progressPhase(makeProject({ status: "Rendering", is_queued: 1 }))).toBe("queued");
    expect(progressPhase(makeProject({ status: "Rendering", is_queued: 0 }))).toBe("rendering");
    expect(progressPhase(makeProject({ status: "Final Rendering" }))).toBe("rendering");
    expect(progressPhase(makeProject({ status: "Working" }))).toBe("creating");
    expect(progressPhase(makeProject({ status: "Preview Ready" }))).toBeUndefined();
  });

  it("shows a waiting project's place in the queue and the time left the server measured", () => {
    wrap(<RenderingView project={makeProject({ status: "Final Rendering", is_queued: 1, working_progress: 0, queue_ahead: 3, seconds_left: 250 })} />);
    expect(screen.getByRole("heading", { name: "Waiting in the queue" })).toBeTruthy();
    expect(screen.getByText("3 projects ahead of yours")).toBeTruthy();
    expect(screen.getByText("About 5 minutes left")).toBeTruthy();
    expect(screen.getByRole("progressbar", { name: "Progress" }).getAttribute("aria-valuenow")).toBe("1");
  });

  it("says Rendering once the render runs, with its real progress, and promises no time without a basis", () => {
    wrap(<RenderingView project={makeProject({ status: "Final Rendering", is_queued: 0, working_progress: 37, queue_ahead: null, seconds_left: null })} />);
    expect(screen.getByRole("heading", { name: "Rendering your export" })).toBeTruthy();
    expect(screen.queryByText(/Waiting in the queue/)).toBeNull();
    expect(screen.getByRole("progressbar", { name: "Progress" }).getAttribute("aria-valuenow")).toBe("37");
    expect(screen.queryByText(/left$/)).toBeNull();
    expect(screen.queryByText(/ahead of yours/)).toBeNull();
  });

  it("says the next one is yours, and less than a minute near the end", () => {
    wrap(<RenderingView project={makeProject({ status: "Rendering", is_queued: 1, working_progress: 0, queue_ahead: 0, seconds_left: 40 })} />);
    expect(screen.getByText("Yours is next in the queue.")).toBeTruthy();
    expect(screen.getByText("Less than a minute left")).toBeTruthy();
  });

  it("says the page follows live only while the stream is live; every minute otherwise", async () => {
    wrap(<RenderingView project={makeProject({ status: "Rendering", working_progress: 10 })} />);
    expect(screen.getByText(/this page updates every minute/)).toBeTruthy();
    await db.meta.put({ key: "progressStream", value: { state: "live", at: new Date().toISOString() } });
    expect(await screen.findByText(/this page follows it as it moves/)).toBeTruthy();
  });

  it("keeps the storyboard banner saying why it is read-only while rendering", () => {
    wrap(<ProjectStateBanner project={makeProject({ status: "Rendering", working_progress: 55 })} />);
    expect(screen.getByText("Rendering your video")).toBeTruthy();
    expect(screen.getByText(/The storyboard is read-only until this has finished/)).toBeTruthy();
  });

  it("labels a rendering project Rendering, a project being made Creating project", () => {
    wrap(
      <>
        <ProjectStatusBadge project={makeProject({ status: "Rendering" })} />
        <ProjectStatusBadge project={makeProject({ status: "Working" })} />
      </>,
    );
    expect(screen.getByText("Rendering")).toBeTruthy();
    expect(screen.getByText("Creating project")).toBeTruthy();
  });
});
