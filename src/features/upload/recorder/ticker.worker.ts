/// <reference lib="webworker" />
// Issue 17: paces the picture-in-picture drawing; a worker's timers keep their rate while the page is hidden.
let timer: ReturnType<typeof setInterval> | undefined;
self.onmessage = (event: MessageEvent<number>) => {
  if (timer) clearInterval(timer);
  timer = setInterval(() => self.postMessage(0), Math.max(10, event.data));
};
