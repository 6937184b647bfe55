import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Tab, TabList, TabPanel, Tabs, type Key } from "react-aria-components";
import { LibraryTab, type LibraryItem } from "../../../api/media";
import { Button, Spinner } from "../../ui/Button";
import { worker } from "../../worker";
import { libraryKey } from "../../../workers/library";
import { failureMessage } from "../errors";
import { useLibraryList, usePagedLoader } from "./hooks";
import { ItemCard } from "./ItemCard";
import { SearchBox } from "./SearchBox";
import { isItemPicked, type InsertMode, type Selection } from "./selection";

/** SPEC §2: the tabs in the interface wording. */
const TAB_LABELS = { video: msg`Videos`, audio: msg`Audios`, image: msg`Images`, scenes: msg`Scenes` } as const;

export interface ItemListProps {
  tab: LibraryTab;
  onTabChange: (tab: LibraryTab) => void;
  /** What is typed, and the settled query the list is for. */
  input: string;
  onInput: (value: string) => void;
  query: string;
  openId: number | null;
  onOpen: (id: number) => void;
  /** Changing it reloads the list at once (e.g. after an upload). */
  reloadKey: number;
  mode: InsertMode | null;
  selection: Selection;
  onToggleItem: (item: LibraryItem) => void;
}

/** The item list: tabs, name search, cards, load more and the empty states of SPEC §8. */
export function ItemList({ tab, onTabChange, input, onInput, query, openId, onOpen, reloadKey, mode, selection, onToggleItem }: ItemListProps) {
  const { t, i18n } = useLingui();
  return (
    <section className="library-pane library-list" aria-label={t`Media`}>
      <SearchBox label={t`Search by name`} value={input} onChange={onInput} />
      <Tabs className="library-tabs" selectedKey={tab} onSelectionChange={(key: Key) => onTabChange(LibraryTab.parse(key))}>
        <TabList className="tab-list" aria-label={t`Media types`}>
          {LibraryTab.options.map((id) => (
            <Tab key={id} id={id} className="tab">
              {i18n._(TAB_LABELS[id])}
            </Tab>
          ))}
        </TabList>
        {LibraryTab.options.map((id) => (
          <TabPanel key={id} id={id} className="tab-panel">
            <TabItems tab={id} query={query} openId={openId} onOpen={onOpen} reloadKey={reloadKey} mode={mode} selection={selection} onToggleItem={onToggleItem} />
          </TabPanel>
        ))}
      </Tabs>
    </section>
  );
}

type TabItemsProps = Pick<ItemListProps, "tab" | "query" | "openId" | "onOpen" | "reloadKey" | "mode" | "selection" | "onToggleItem">;

function TabItems({ tab, query, openId, onOpen, reloadKey, mode, selection, onToggleItem }: TabItemsProps) {
  const { t, i18n } = useLingui();
  const list = useLibraryList(tab, query);
  const meta = list?.meta;
  const { loading, failure, more, reload } = usePagedLoader(`${libraryKey(tab, query)}#${reloadKey}`, meta, (page) => worker.searchLibrary(tab, query, page));

  if (!meta) {
    return failure ? (
      <div className="empty-state" role="alert">
        <p>{failureMessage(i18n, failure)}</p>
        <Button variant="secondary" onPress={() => void reload()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    ) : (
      <div className="loading-card">
        <Spinner label={t`Loading the library…`} />
      </div>
    );
  }
  if (list.rows.length === 0) {
    return <p className="empty-state">{query ? <Trans>No results found for “{query}”</Trans> : <Trans>No results</Trans>}</p>;
  }
  return (
    <>
      <ul className="library-item-grid" aria-label={i18n._(TAB_LABELS[tab])}>
        {list.rows.map((item) => (
          <ItemCard
            key={item.id}
            item={item}
            isOpen={item.id === openId}
            onOpen={onOpen}
            insertMode={!!mode}
            pick={mode?.kind === "insert" ? { isPicked: isItemPicked(selection, item.id), onToggle: () => onToggleItem(item) } : undefined}
          />
        ))}
      </ul>
      {meta.page < meta.lastPage && (
        <div className="library-more">
          <Button variant="secondary" onPress={() => void more()} isPending={loading}>
            <Trans>Load more</Trans>
          </Button>
        </div>
      )}
    </>
  );
}
