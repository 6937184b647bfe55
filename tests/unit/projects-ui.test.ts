import { describe, expect, it } from "vitest";
import { displayedProgress } from "../../src/lib/progress";
import { displayedProgress as serverDisplayedProgress } from "../../server/domain/project-settings";
import { projectState } from "../../src/lib/project-state";
import { formatDuration, formatPercent, formatSize } from "../../src/lib/format";
import type { Project } from "../../api/projects";

const project = (over: Partial<Pick<Project, "deleted_at" | "is_queued" | "status">>) => ({
  deleted_at: null,
  is_queued: 0 as const,
  status: "Preview Ready" as Project["status"],
  ...over,
});

describe("a project's card state (SPEC §2 Project list, §4)", () => {
  it("shows deleted projects as deleted, whatever else they say", () => {
    expect(projectState(project({ deleted_at: "2026-01-01T00:00:00Z", is_queued: 1, status: "Working" }))).toBe("deleted");
  });
  it("lets the queue flag win over the status", () => {
    expect(projectState(project({ is_queued: 1, status: "Not Started" }))).toBe("queued");
    expect(projectState(project({ is_queued: 1, status: "Preview Ready" }))).toBe("queued");
  });
  it.each(["new", "Working", "Rendering", "Final Rendering", "Rdg Request"] as const)("shows %s as creating", (status) => {
    expect(projectState(project({ status }))).toBe("busy");
  });
  it("maps the resting statuses", () => {
    expect(projectState(project({ status: "Not Started" }))).toBe("not_started");
    expect(projectState(project({ status: "Preview Ready" }))).toBe("preview_ready");
    expect(projectState(project({ status: "Render Ready" }))).toBe("render_ready");
    expect(projectState(project({ status: "Failed" }))).toBe("failed");
  });
});

describe("the progress shown while a project is made (SPEC §2 Project preview)", () => {
  it("is the mean of working and raw progress while the raw preview is under 100", () => {
    expect(displayedProgress(40, 60)).toBe(50);
    expect(displayedProgress(0, 99)).toBe(49.5);
  });
  it("is the working progress once the raw preview is done", () => {
    expect(displayedProgress(30, 100)).toBe(30);
  });
  it("is never below 1 nor above 100", () => {
    expect(displayedProgress(0, 0)).toBe(1);
    expect(displayedProgress(150, 100)).toBe(100);
  });
  it("agrees with the server's rule", () => {
    for (const [w, r] of [[0, 0], [10, 20], [55, 99], [55, 100], [100, 100]] as const) {
      expect(displayedProgress(w, r)).toBe(serverDisplayedProgress(w, r));
    }
  });
});

describe("lengths, sizes and percentages", () => {
  it("writes lengths as mm:ss, and h:mm:ss from an hour", () => {
    expect(formatDuration(0)).toBe("00:00");
    expect(formatDuration(187.4)).toBe("03:07");
    expect(formatDuration(3723)).toBe("1:02:03");
    expect(formatDuration(Number.NaN)).toBe("00:00");
  });
  it("writes sizes in KB under 0.1 MB, MB under a GB and GB above", () => {
    expect(formatSize(1_488)).toBe("1.5 KB");
    expect(formatSize(177_459)).toBe("0.2 MB");
    expect(formatSize(512 * 1024 ** 2)).toBe("512.0 MB");
    expect(formatSize(1.5 * 1024 ** 3)).toBe("1.5 GB");
  });
  it("writes upload progress with one decimal, the language's way", () => {
    expect(formatPercent(45.25, "en")).toBe("45.3%");
    expect(formatPercent(100, "en")).toBe("100.0%");
    expect(formatPercent(7.5, "pt-BR")).toBe("7,5%");
  });
});
