import { Button, Text, UNSTABLE_Toast as AriaToast, UNSTABLE_ToastContent as ToastContent, UNSTABLE_ToastRegion as ToastRegion } from "react-aria-components";
import { useLingui } from "@lingui/react/macro";
import { toasts } from "./Toast";

/** The toasts' landmark region; loaded with the first toast (see `Toasts`). */
export default function ToastRegionView() {
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
