/** The storyboard's line icons (24×24, stroke): decorative, the buttons carry the names. */
const PATHS = {
  play: "M7 4.5v15l12-7.5z",
  playFrom: "M4 4v16M9 4.5v15l11-7.5z",
  text: "M4 6h16M4 12h10M4 18h13",
  hide: "M3 3l18 18M10.6 5.1A10 10 0 0 1 12 5c5 0 9 4.5 10 7-.5 1.2-1.5 2.8-3 4.2M6.6 6.6C4.4 8 2.8 10.2 2 12c1 2.5 5 7 10 7 1.9 0 3.6-.6 5-1.5M9.9 9.9a3 3 0 0 0 4.2 4.2",
  show: "M2 12c1-2.5 5-7 10-7s9 4.5 10 7c-1 2.5-5 7-10 7S3 14.5 2 12zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z",
  more: "M5 12h.01M12 12h.01M19 12h.01",
  plus: "M12 5v14M5 12h14",
  merge: "M7 4v5a5 5 0 0 0 5 5v6M17 4v5a5 5 0 0 1-5 5",
  grip: "M9 5h.01M15 5h.01M9 12h.01M15 12h.01M9 19h.01M15 19h.01",
  help: "M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM9.1 9a3 3 0 0 1 5.8 1c0 2-3 2.5-3 4.5M12 17.5h.01",
  layers: "M12 3l9 5-9 5-9-5zM3 13l9 5 9-5",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  const round = name === "more" || name === "grip";
  return (
    <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false" strokeLinecap="round" strokeWidth={round ? 4 : undefined}>
      <path d={PATHS[name]} />
    </svg>
  );
}
