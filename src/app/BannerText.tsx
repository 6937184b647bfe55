import { useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Button } from "react-aria-components";

/**
 * A banner's message. On a phone it keeps to one line (issue 18: two banners took a quarter of the
 * first screen); when the line is cut, a button beside it shows the whole message, and hides it again.
 */
export function BannerText({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const id = useId();
  const text = useRef<HTMLSpanElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [cut, setCut] = useState(false);

  useEffect(() => {
    const element = text.current;
    if (!element || expanded) return;
    const measure = () => setCut(element.scrollWidth > element.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [expanded, children]);

  return (
    <>
      <span ref={text} id={id} className="banner-text" data-expanded={expanded || undefined}>
        {children}
      </span>
      {(cut || expanded) && (
        <Button
          className="banner-more"
          aria-controls={id}
          aria-expanded={expanded}
          aria-label={expanded ? t`Show less of this message` : t`Show the whole message`}
          onPress={() => setExpanded((open) => !open)}
        >
          <svg className="icon" viewBox="0 0 24 24" aria-hidden="true">
            <path d={expanded ? "M6 15l6-6 6 6" : "M6 9l6 6 6-6"} />
          </svg>
        </Button>
      )}
    </>
  );
}
