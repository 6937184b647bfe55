import { renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { usePolling } from "../../src/app/usePolling";
import { POLL_MS } from "../../src/lib/constants";

let visibility: DocumentVisibilityState = "visible";
const setVisibility = (state: DocumentVisibilityState) => {
  visibility = state;
  document.dispatchEvent(new Event("visibilitychange"));
};

describe("polling (SPEC §9: every 60 s)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    visibility = "visible";
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
  });
  afterEach(() => vi.useRealTimers());

  it("refreshes at once, then every 60 s", () => {
    const refresh = vi.fn();
    renderHook(() => usePolling(refresh));
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(POLL_MS - 1);
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(POLL_MS);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it("pauses while the tab is hidden and catches up when it shows again", () => {
    const refresh = vi.fn();
    renderHook(() => usePolling(refresh));
    setVisibility("hidden");
    vi.advanceTimersByTime(POLL_MS * 5);
    expect(refresh).toHaveBeenCalledTimes(1);
    setVisibility("visible");
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("does not refresh early when the tab comes back within the minute", () => {
    const refresh = vi.fn();
    renderHook(() => usePolling(refresh));
    vi.advanceTimersByTime(POLL_MS / 2);
    setVisibility("hidden");
    setVisibility("visible");
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(POLL_MS / 2);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("starts over when its key changes, and stops when unmounted", () => {
    const refresh = vi.fn();
    const { rerender, unmount } = renderHook(({ page }) => usePolling(refresh, page), { initialProps: { page: 1 } });
    rerender({ page: 2 });
    expect(refresh).toHaveBeenCalledTimes(2);
    unmount();
    vi.advanceTimersByTime(POLL_MS * 3);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("refreshes when the connection comes back", () => {
    const refresh = vi.fn();
    renderHook(() => usePolling(refresh));
    window.dispatchEvent(new Event("online"));
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
