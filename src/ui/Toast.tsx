import {
  Button,
  Text,
  UNSTABLE_Toast as AriaToast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
} from "react-aria-components";
import { useLingui } from "@lingui/react/macro";
import { TOAST_MS } from "../lib/constants";

export interface ToastContentValue {
  title: string;
  description?: string;
  variant: "success" | "danger" | "warning" | "info";
  action?: { label: string; onAction: () => void };
}

export const toasts = new ToastQueue<ToastContentValue>({ maxVisibleToasts: 4 });

/** Shows a toast that hides itself after SPEC §9's 2.5 s (unless it has an action). */
export function toast(content: ToastContentValue, timeout: number | undefined = content.action ? undefined : TOAST_MS) {
  return toasts.add(content, { timeout });
}

export function Toasts() {
  const { t } = useLingui();
  return (
    <ToastRegion queue={toasts} className="toast-region">
      {({ toast: item }) => (
        <AriaToast toast={item} className={`toast toast-${item.content.variant}`}>
          <ToastContent className="toast-content">
            <Text slot="title" className="toast-title">{item.content.title}</Text>
            {item.content.description && <Text slot="description">{item.content.description}</Text>}
          </ToastContent>
          {item.content.action && (
            <Button className="btn btn-secondary" onPress={() => { item.content.action!.onAction(); toasts.close(item.key); }}>
              {item.content.action.label}
            </Button>
          )}
          <Button slot="close" className="toast-close" aria-label={t`Close`}>
            ×
          </Button>
        </AriaToast>
      )}
    </ToastRegion>
  );
}
