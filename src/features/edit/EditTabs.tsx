import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Tab, TabList, TabPanel, Tabs } from "react-aria-components";
import { Select } from "../../ui/Select";
import { EDIT_TAB_LABELS, EDIT_TABS, type EditTab } from "./tabs";
import { useNarrow } from "./useMediaQuery";

/**
 * The edit screen's tabs, each one a URL: a tab bar on wide screens, a labelled dropdown under 1023 px
 * (SPEC §2 Project edit). Only the open tab's content is rendered.
 */
export function EditTabs({ tab, onChange, children }: { tab: EditTab; onChange: (tab: EditTab) => void; children: ReactNode }) {
  const { t, i18n } = useLingui();
  const narrow = useNarrow();
  const options = EDIT_TABS.map((id) => ({ id, label: i18n._(EDIT_TAB_LABELS[id]) }));

  if (narrow) {
    return (
      <div className="edit-tabs edit-tabs-narrow">
        <div className="edit-tab-select">
          <Select<EditTab> label={t`Section`} value={tab} onChange={onChange} options={options} />
        </div>
        <section className="edit-panel" aria-label={i18n._(EDIT_TAB_LABELS[tab])}>
          {children}
        </section>
      </div>
    );
  }
  return (
    <Tabs className="edit-tabs" selectedKey={tab} onSelectionChange={(key) => onChange(String(key) as EditTab)}>
      <TabList className="edit-tablist" aria-label={t`Project sections`} items={options}>
        {(item) => (
          <Tab id={item.id} className="edit-tab">
            {item.label}
          </Tab>
        )}
      </TabList>
      <TabPanel id={tab} className="edit-panel">
        {children}
      </TabPanel>
    </Tabs>
  );
}
