import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listenForInstallPrompt, promptInstall, useCanInstall } from "../../src/app/install";

/** A `(display-mode: standalone)` query whose answer the test changes, as the browser would. */
function displayMode(standalone: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return standalone;
    },
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  };
  vi.stubGlobal("matchMedia", () => query);
  return (value: boolean) => {
    standalone = value;
    listeners.forEach((l) => l());
  };
}

const offer = (outcome: "accepted" | "dismissed") => {
  const prompt = vi.fn(async () => undefined);
  const event = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), { prompt, userChoice: Promise.resolve({ outcome }) });
  return { event, prompt };
};

afterEach(() => vi.unstubAllGlobals());

describe("the install-app entry", () => {
  listenForInstallPrompt();

  it("appears when the browser offers installing, and the offer runs once", async () => {
    displayMode(false);
    const { result } = renderHook(() => useCanInstall());
    expect(result.current).toBe(false);
    const { event, prompt } = offer("accepted");
    act(() => void window.dispatchEvent(event));
    expect(event.defaultPrevented).toBe(true);
    expect(result.current).toBe(true);
    let accepted: boolean | undefined;
    await act(async () => void (accepted = await promptInstall()));
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(accepted).toBe(true);
    expect(result.current).toBe(false);
  });

  it("goes when the app gets installed or runs as the installed app", () => {
    const setStandalone = displayMode(false);
    const { result } = renderHook(() => useCanInstall());
    act(() => void window.dispatchEvent(offer("dismissed").event));
    expect(result.current).toBe(true);
    act(() => setStandalone(true));
    expect(result.current).toBe(false);
    act(() => setStandalone(false));
    expect(result.current).toBe(true);
    act(() => void window.dispatchEvent(new Event("appinstalled")));
    expect(result.current).toBe(false);
  });
});
