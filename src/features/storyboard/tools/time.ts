import type { Scene } from "../../../../api/scenes";

/** Media seconds → seconds of the project's raw preview: the scene's trim start sits at trim_start_raw. */
export const toRawSeconds = (scene: Pick<Scene, "trim_start" | "trim_start_raw">, mediaSeconds: number) =>
  Math.max(0, mediaSeconds + scene.trim_start_raw - scene.trim_start);

/** Hundredths of a second: what the trim and split fields step by. */
export const TIME_STEP = 0.01;
export const roundTime = (seconds: number) => Math.round(seconds * 100) / 100;

/** "3.25s" the language's way. */
export const formatSeconds = (seconds: number, locale: string) =>
  new Intl.NumberFormat(locale, { style: "unit", unit: "second", unitDisplay: "narrow", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(seconds);
