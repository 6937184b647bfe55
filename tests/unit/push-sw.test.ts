import { describe, expect, it, vi } from "vitest";
import {
  askUrl,
  editorView,
  notificationFor,
  openNotification,
  pickClient,
  readPayload,
  sameOriginUrl,
  showPush,
  NOTIFICATION_BADGE,
  NOTIFICATION_ICON,
} from "../../sw/push";

const ORIGIN = "https://cutroom.test";
const payload = { title: "Your preview is ready", body: "Talk is ready to edit", url: "/projects/7/storyboard", projectId: 7, kind: "preview_ready", tag: "project-7" };

describe("reading a push", () => {
  it("takes the server's payload", () => {
    expect(readPayload(JSON.stringify(payload))).toEqual(payload);
  });

  it("refuses what is not the payload", () => {
    expect(readPayload(null)).toBeNull();
    expect(readPayload("not json")).toBeNull();
    expect(readPayload(JSON.stringify({ ...payload, projectId: "x" }))).toBeNull();
    expect(readPayload(JSON.stringify({ ...payload, title: 3 }))).toBeNull();
    expect(readPayload("[1,2]")).toBeNull();
  });

  it("fills a missing tag and an unknown kind", () => {
    const read = readPayload(JSON.stringify({ ...payload, tag: "", kind: "nonsense" }));
    expect(read).toMatchObject({ tag: "project-7", kind: "preview_ready" });
  });
});

describe("payload → notification", () => {
  it("carries title, body, icon, badge, tag and the click's data", () => {
    const { title, options } = notificationFor(readPayload(JSON.stringify(payload)), ORIGIN);
    expect(title).toBe("Your preview is ready");
    expect(options).toMatchObject({
      body: "Talk is ready to edit",
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE,
      tag: "project-7",
      data: { url: `${ORIGIN}/projects/7/storyboard`, projectId: 7, kind: "preview_ready" },
    });
  });

  it("never leads to another site: a foreign link becomes the project's own view", () => {
    const foreign = readPayload(JSON.stringify({ ...payload, kind: "render_ready", url: "https://evil.example/x" }));
    expect(notificationFor(foreign, ORIGIN).options.data.url).toBe(`${ORIGIN}/projects/7/share`);
    expect(sameOriginUrl("/projects/7/share?x=1", ORIGIN, "/open")).toBe(`${ORIGIN}/projects/7/share?x=1`);
  });

  it("shows something even for a push it cannot read", () => {
    const { title, options } = notificationFor(null, ORIGIN);
    expect(title).toBe("Cutroom");
    expect(options.data).toEqual({ url: `${ORIGIN}/open`, projectId: null, kind: null });
  });
});

describe("which tab a click brings back", () => {
  const tab = (path: string, focused = false) => ({ url: ORIGIN + path, focused });

  it("knows the editor views", () => {
    expect(editorView(`${ORIGIN}/projects/12/storyboard`)).toEqual({ projectId: 12, view: "storyboard" });
    expect(editorView(`${ORIGIN}/projects/12/share/`)).toEqual({ projectId: 12, view: "share" });
    expect(editorView(`${ORIGIN}/projects/12/music`)).toBeNull();
    expect(editorView(`${ORIGIN}/projects/12/storyboard/extra`)).toBeNull();
  });

  it("prefers the tab already at the link", () => {
    const tabs = [tab("/projects/7/storyboard", true), tab("/projects/7/share")];
    expect(pickClient(tabs, `${ORIGIN}/projects/7/share`, 7)).toBe(tabs[1]);
  });

  it("uses the project's storyboard tab for a finished render when no share tab is open", () => {
    const tabs = [tab("/open", true), tab("/projects/7/storyboard")];
    expect(pickClient(tabs, `${ORIGIN}/projects/7/share`, 7)).toBe(tabs[1]);
  });

  it("prefers the same view, then a focused tab", () => {
    const tabs = [tab("/projects/7/share"), tab("/projects/7/storyboard"), tab("/projects/7/storyboard", true)];
    expect(pickClient(tabs, `${ORIGIN}/projects/7/storyboard?scene=3`, 7)).toBe(tabs[2]);
  });

  it("leaves other projects and other pages alone", () => {
    const tabs = [tab("/projects/8/storyboard", true), tab("/projects/7/music"), tab("/library")];
    expect(pickClient(tabs, `${ORIGIN}/projects/7/storyboard`, 7)).toBeUndefined();
  });

  it("reads the project from the link when the data lacks it", () => {
    const tabs = [tab("/projects/7/share")];
    expect(pickClient(tabs, `${ORIGIN}/projects/7/storyboard`, null)).toBe(tabs[0]);
  });
});

/** A service worker's scope as far as the handlers use it. */
type FakeTab = {
  /** Where the tab loaded: what the browser reports as the client's url. */
  url: string;
  /** Where the app's router has taken it since; undefined = the page does not answer. */
  at?: string | null;
  focused?: boolean;
  focus?: () => Promise<unknown>;
  navigate?: (url: string) => Promise<unknown>;
};
function fakeScope(tabs: FakeTab[]) {
  type FakeClient = { url: string; focused: boolean; postMessage: ReturnType<typeof vi.fn>; focus: ReturnType<typeof vi.fn>; navigate: ReturnType<typeof vi.fn> };
  const clients: FakeClient[] = tabs.map((t) => ({
    url: t.url,
    focused: t.focused ?? false,
    postMessage: vi.fn((message: { type: string }, ports?: MessagePort[]) => {
      if (message.type === "where-are-you" && t.at !== null) ports?.[0]?.postMessage(t.at ?? t.url);
    }),
    focus: vi.fn(t.focus ?? (async (): Promise<FakeClient | undefined> => clients.find((c) => c.url === t.url))),
    navigate: vi.fn(t.navigate ?? (async (url: string) => ({ url }))),
  }));
  const scope = {
    location: { origin: ORIGIN },
    clients: { matchAll: vi.fn(async () => clients), openWindow: vi.fn(async () => null) },
    registration: { showNotification: vi.fn(async () => undefined) },
  };
  return { scope: scope as unknown as ServiceWorkerGlobalScope, clients, raw: scope };
}

describe("the service worker's handlers", () => {
  it("a push shows the notification and tells every tab to refresh the project", async () => {
    const { scope, clients, raw } = fakeScope([{ url: `${ORIGIN}/open` }, { url: `${ORIGIN}/projects/7/storyboard` }]);
    await showPush(scope, JSON.stringify(payload));
    expect(raw.registration.showNotification).toHaveBeenCalledWith("Your preview is ready", expect.objectContaining({ tag: "project-7" }));
    for (const client of clients) expect(client.postMessage).toHaveBeenCalledWith({ type: "project-updated", projectId: 7 });
  });

  const notification = (data: unknown) => ({ data, close: vi.fn() }) as unknown as Notification;

  it("a click focuses the editor tab and moves it to the link", async () => {
    const { scope, clients, raw } = fakeScope([{ url: `${ORIGIN}/open`, focused: true }, { url: `${ORIGIN}/projects/7/storyboard` }]);
    const shown = notification({ url: `${ORIGIN}/projects/7/share`, projectId: 7, kind: "render_ready" });
    await expect(openNotification(scope, shown)).resolves.toEqual({ action: "navigated", url: `${ORIGIN}/projects/7/share` });
    expect(shown.close).toHaveBeenCalled();
    expect(clients[1]!.focus).toHaveBeenCalled();
    expect(clients[1]!.navigate).toHaveBeenCalledWith(`${ORIGIN}/projects/7/share`);
    expect(clients[0]!.focus).not.toHaveBeenCalled();
    expect(raw.clients.openWindow).not.toHaveBeenCalled();
  });

  it("a click finds the editor tab the app's router moved to, not where the tab loaded", async () => {
    const { scope, clients } = fakeScope([
      { url: `${ORIGIN}/projects/7/share`, at: `${ORIGIN}/open` },
      { url: `${ORIGIN}/login`, at: `${ORIGIN}/projects/7/storyboard` },
    ]);
    await expect(openNotification(scope, notification({ url: `${ORIGIN}/projects/7/share`, projectId: 7, kind: "render_ready" }))).resolves.toMatchObject({ action: "navigated" });
    expect(clients[1]!.navigate).toHaveBeenCalledWith(`${ORIGIN}/projects/7/share`);
    expect(clients[0]!.navigate).not.toHaveBeenCalled();
  });

  it("a tab that does not answer is taken at its loaded address", async () => {
    await expect(askUrl({ url: `${ORIGIN}/projects/7/share`, postMessage: () => undefined }, 20)).resolves.toBe(`${ORIGIN}/projects/7/share`);
    const { scope, clients } = fakeScope([{ url: `${ORIGIN}/projects/7/storyboard`, at: null }]);
    await expect(openNotification(scope, notification({ url: `${ORIGIN}/projects/7/storyboard`, projectId: 7, kind: "preview_ready" }))).resolves.toMatchObject({ action: "focused" });
    expect(clients[0]!.navigate).not.toHaveBeenCalled();
  });

  it("a click on a tab already at the link only focuses it", async () => {
    const { scope, clients } = fakeScope([{ url: `${ORIGIN}/projects/7/storyboard` }]);
    await expect(openNotification(scope, notification({ url: `${ORIGIN}/projects/7/storyboard`, projectId: 7, kind: "preview_ready" }))).resolves.toMatchObject({ action: "focused" });
    expect(clients[0]!.navigate).not.toHaveBeenCalled();
  });

  it("still uses the tab when focusing is refused", async () => {
    const { scope, clients } = fakeScope([{ url: `${ORIGIN}/projects/7/storyboard`, focus: () => Promise.reject(new Error("Not allowed to focus a window")) }]);
    await expect(openNotification(scope, notification({ url: `${ORIGIN}/projects/7/share`, projectId: 7, kind: "render_ready" }))).resolves.toMatchObject({ action: "navigated" });
    expect(clients[0]!.navigate).toHaveBeenCalled();
  });

  it("opens the link when no editor tab of the project is open", async () => {
    const { scope, raw } = fakeScope([{ url: `${ORIGIN}/projects/8/storyboard` }]);
    await expect(openNotification(scope, notification({ url: "/projects/7/storyboard", projectId: 7, kind: "render_failed" }))).resolves.toMatchObject({ action: "opened" });
    expect(raw.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/projects/7/storyboard`);
  });
});
