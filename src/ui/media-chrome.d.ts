import type { DetailedHTMLProps, HTMLAttributes } from "react";

/** media-chrome's custom elements in JSX (React 19 passes their attributes through). */
type MediaChromeElement = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement>;

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "media-controller": MediaChromeElement & { autohide?: number | string; nohotkeys?: boolean; breakpoints?: string; audio?: boolean };
      "media-control-bar": MediaChromeElement;
      "media-play-button": MediaChromeElement;
      "media-time-range": MediaChromeElement;
      "media-time-display": MediaChromeElement & { showduration?: boolean; remaining?: boolean; notoggle?: boolean };
      "media-mute-button": MediaChromeElement;
      "media-volume-range": MediaChromeElement;
      "media-fullscreen-button": MediaChromeElement;
      "media-captions-button": MediaChromeElement;
      "media-captions-menu": MediaChromeElement & { anchor?: string };
      "media-captions-menu-button": MediaChromeElement;
      "media-loading-indicator": MediaChromeElement & { noautohide?: boolean };
    }
  }
}
