import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import type { SubtitleSetLine } from "../../api/subtitles";

const worker = vi.hoisted(() => ({ setSubtitleLine: vi.fn() }));
vi.mock("../../src/worker", () => ({ worker }));

const { SubtitleLineField } = await import("../../src/features/translate/SubtitleLineField");

/** What a screen reader reads after the field's name: its description (the count and how the save went). */
const description = (input: HTMLElement) =>
  (input.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" ")
    .trim();
const focus = (input: HTMLElement) => act(() => input.focus());
const blur = (input: HTMLElement) => act(() => input.blur());

const LINE: SubtitleSetLine = { key: "4@1250", scene_id: 1, start: 1.25, end: 2.75, text: "hola", edited: 0 };

function show(line: SubtitleSetLine = LINE, onEditingChange = vi.fn()) {
  render(
    <I18nProvider i18n={i18n}>
      <SubtitleLineField setId={20} line={line} number={1} onEditingChange={onEditingChange} />
    </I18nProvider>,
  );
  return { input: screen.getByRole("textbox", { name: /^Line 1 00:01\.2 – 00:02\.7/ }) as HTMLInputElement, onEditingChange };
}

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  worker.setSubtitleLine.mockReset();
  worker.setSubtitleLine.mockResolvedValue({ ok: true, data: null });
});
afterEach(cleanup);

describe("a subtitle line on the Translate page (SPEC §2, §5: 35 characters)", () => {
  it("counts characters as they are typed and saves on Enter, once", async () => {
    const { input } = show();
    focus(input);
    fireEvent.change(input, { target: { value: "¡hola a todos!" } });
    expect(description(input)).toBe("14/35 characters");
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(description(input)).toBe("14/35 characters · Saved"));
    blur(input);
    expect(worker.setSubtitleLine).toHaveBeenCalledTimes(1);
    expect(worker.setSubtitleLine).toHaveBeenCalledWith(20, "4@1250", "¡hola a todos!");
  });

  it("refuses a line over 35 characters without sending it, and Escape puts the saved text back", async () => {
    const { input } = show();
    focus(input);
    fireEvent.change(input, { target: { value: "x".repeat(36) } });
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("A text line has at most 35 characters.")).toBeTruthy();
    fireEvent.keyDown(input, { key: "Enter" });
    blur(input);
    expect(worker.setSubtitleLine).not.toHaveBeenCalled();
    focus(input);
    fireEvent.keyDown(input, { key: "Escape" });
    expect(input.value).toBe("hola");
  });

  it("says an edit made offline is kept on this device", async () => {
    worker.setSubtitleLine.mockResolvedValue({ ok: true, data: null, queued: true });
    const { input } = show();
    focus(input);
    fireEvent.change(input, { target: { value: "hola, mundo" } });
    blur(input);
    await waitFor(() => expect(description(input)).toBe("11/35 characters · Saved on this device"));
  });

  it("tells the page while the line is being edited, so its refresh waits", () => {
    const { input, onEditingChange } = show();
    focus(input);
    expect(onEditingChange).toHaveBeenLastCalledWith(true);
    blur(input);
    expect(onEditingChange).toHaveBeenLastCalledWith(false);
  });
});
