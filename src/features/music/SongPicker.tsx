import { useEffect, useId, useMemo, useState } from "react";
import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { Button as AriaButton, Input, Label, SearchField, Tag, TagGroup, TagList, type Selection } from "react-aria-components";
import type { Project } from "../../../api/projects";
import type { SongRow } from "../../db";
import { Button, Spinner } from "../../ui/Button";
import { toast } from "../../ui/Toast";
import { worker } from "../../worker";
import { filterSongs, tagGroups, type TagGroupName } from "../../../workers/music";
import { failureMessage } from "../errors";
import { isLocked } from "../edit/NeedsRenderAlert";
import { useOnline } from "../storyboard/useOnline";
import { useLiveQuery } from "dexie-react-hooks";
import { db } from "../../db";
import { SongDemo } from "./SongDemo";
import { useSongs, useSongsFetched } from "./useSongs";
import "./music.css";

type Load = "pending" | "done" | "offline" | "failed";

/**
 * SPEC §2 Music picker (issue 15): the songs (title, author, genres, instruments, themes) with a demo each,
 * found by a search (title, author) and tags, and "Use this song". The list is the mirror's, fetched again when
 * the tab opens; offline it shows the songs saved on this device and a pick waits in the outbox.
 */
export function SongPicker({ project, currentId }: { project: Project; currentId: number | null }) {
  const { t } = useLingui();
  const online = useOnline();
  const songs = useSongs();
  const fetched = useSongsFetched();
  const [load, setLoad] = useState<Load>("pending");
  const [query, setQuery] = useState("");
  const [tags, setTags] = useState<ReadonlySet<string>>(new Set());
  const titleId = useId();

  useEffect(() => {
    let live = true;
    void worker.refreshSongs().then((result) => {
      if (live) setLoad(result.ok ? "done" : result.failure.kind === "network" ? "offline" : "failed");
    });
    return () => {
      live = false;
    };
  }, []);

  const groups = useMemo(() => tagGroups(songs), [songs]);
  const shown = useMemo(() => {
    const found = filterSongs(songs, { q: query, tags: [...tags] });
    // The project's song first.
    return [...found.filter((s) => s.id === currentId), ...found.filter((s) => s.id !== currentId)];
  }, [songs, query, tags, currentId]);
  const filtering = query.trim() !== "" || tags.size > 0;
  const clear = () => {
    setQuery("");
    setTags(new Set());
  };

  return (
    <section className="card song-picker" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        <Trans>Songs</Trans>
      </h2>
      <RefusedPicks projectId={project.id} />
      {!online && songs.length > 0 && (
        <p className="notice notice-neutral" role="status">
          <Trans>You are offline: these are the songs saved on this device. Their demos play once you are back online; a song you choose is saved when the connection is back.</Trans>
        </p>
      )}
      {songs.length === 0 && load === "pending" && fetched === null && <Spinner label={t`Loading the songs…`} />}
      {songs.length === 0 && (load === "offline" || (!online && load !== "pending")) && (
        <p className="empty-state">
          <Trans>The songs are not on this device yet. Connect to the internet to see them.</Trans>
        </p>
      )}
      {songs.length === 0 && load === "failed" && (
        <p className="notice notice-danger" role="alert">
          <Trans>We could not load the songs. Try again in a moment.</Trans>
        </p>
      )}
      {songs.length === 0 && load === "done" && (
        <p className="empty-state">
          <Trans>There are no songs to choose from yet.</Trans>
        </p>
      )}

      {songs.length > 0 && (
        <>
          <div className="song-filters">
            <SearchField className="field song-search" value={query} onChange={setQuery} maxLength={100}>
              <Label className="field-label">
                <Trans>Search by title or author</Trans>
              </Label>
              <div className="song-search-box">
                <Input className="field-input song-search-input" />
                {query && (
                  <AriaButton className="icon-button song-search-clear" aria-label={t`Clear search`}>
                    ×
                  </AriaButton>
                )}
              </div>
            </SearchField>
            <TagFilter name="genre" label={t`Genres`} options={groups.genre} selected={tags} onChange={setTags} />
            <TagFilter name="instrument" label={t`Instruments`} options={groups.instrument} selected={tags} onChange={setTags} />
            <TagFilter name="theme" label={t`Themes`} options={groups.theme} selected={tags} onChange={setTags} />
          </div>
          <div className="song-count">
            <p role="status" className="muted">
              <Plural value={shown.length} one="# song" other="# songs" />
            </p>
            {filtering && (
              <Button variant="ghost" onPress={clear}>
                <Trans>Clear search and tags</Trans>
              </Button>
            )}
          </div>
          {shown.length === 0 ? (
            <p className="empty-state">
              <Trans>No song matches your search and tags.</Trans>
            </p>
          ) : (
            <ul className="song-list" aria-label={t`Songs`}>
              {shown.map((song) => (
                <SongItem key={song.id} song={song} project={project} current={song.id === currentId} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** Picks made offline that the server refused once sent (the list shows the server's song again), until dismissed. */
function RefusedPicks({ projectId }: { projectId: number }) {
  const { t, i18n } = useLingui();
  const refused = useLiveQuery(() => db.failedEdits.where("projectId").equals(projectId).filter((f) => f.kind === "music").sortBy("at"), [projectId]);
  return (refused ?? []).map((f) => (
    <div key={f.id} className="notice notice-danger song-refused" role="alert">
      <p>
        <strong>
          <Trans>The song choice was not saved:</Trans>
        </strong>{" "}
        {failureMessage(i18n, f.failure)}
      </p>
      <Button variant="ghost" className="btn-small" onPress={() => void worker.dismissFailedEdit(f.id!)} aria-label={t`Dismiss this message`}>
        <Trans>Dismiss</Trans>
      </Button>
    </div>
  ));
}

/** One list of tags to filter by (genres, instruments or themes); a song must have every tag chosen. */
function TagFilter({ name, label, options, selected, onChange }: { name: TagGroupName; label: string; options: string[]; selected: ReadonlySet<string>; onChange: (tags: ReadonlySet<string>) => void }) {
  if (options.length === 0) return null;
  const mine = new Set(options.filter((tag) => selected.has(tag)));
  const change = (keys: Selection) => {
    const next = new Set([...selected].filter((tag) => !options.includes(tag)));
    for (const key of keys === "all" ? options : keys) next.add(String(key));
    onChange(next);
  };
  return (
    <TagGroup className={`song-tag-filter song-tag-filter-${name}`} selectionMode="multiple" selectedKeys={mine} onSelectionChange={change}>
      <Label className="field-label">{label}</Label>
      <TagList className="song-tag-options" items={options.map((tag) => ({ id: tag }))}>
        {(item) => (
          <Tag id={item.id} className="song-tag-option" textValue={item.id}>
            {item.id}
          </Tag>
        )}
      </TagList>
    </TagGroup>
  );
}

/** A song of the list: title, author, tags, its demo and "Use this song" ("In use" for the project's song). */
function SongItem({ song, project, current }: { song: SongRow; project: Project; current: boolean }) {
  const { t, i18n } = useLingui();
  const titleId = useId();
  const [picking, setPicking] = useState(false);
  const locked = isLocked(project);

  async function pick() {
    setPicking(true);
    const result = await worker.pickSong(project.id, song.id);
    setPicking(false);
    if (!result.ok) toast({ variant: "danger", title: t`Could not choose this song`, description: failureMessage(i18n, result.failure) });
    else if (result.queued) toast({ variant: "success", title: t`"${song.title}" is chosen`, description: t`It is saved on the server when the connection is back.` });
    else toast({ variant: "success", title: t`"${song.title}" is chosen` });
  }

  return (
    <li className="song-item" data-current={current || undefined} aria-labelledby={titleId}>
      <div className="song-item-main">
        <h3 id={titleId} className="song-item-title">
          {song.title}
        </h3>
        <p className="song-item-author">{song.author}</p>
        <SongTags song={song} />
      </div>
      <div className="song-item-actions">
        <SongDemo song={song} titleId={titleId} />
        {current ? (
          <p className="badge song-in-use">
            <Trans>In use</Trans>
          </p>
        ) : (
          <Button variant="secondary" isDisabled={locked} isPending={picking} onPress={pick} aria-describedby={titleId}>
            <Trans>Use this song</Trans>
          </Button>
        )}
      </div>
    </li>
  );
}

/** A song's genres, instruments and themes as chips, each list named for screen readers. */
function SongTags({ song }: { song: SongRow }) {
  const { t } = useLingui();
  const lists: [TagGroupName, string, string[]][] = [
    ["genre", t`Genres`, song.genre_tags],
    ["instrument", t`Instruments`, song.instrument_tags],
    ["theme", t`Themes`, song.video_theme_tags],
  ];
  return (
    <div className="song-tags">
      {lists
        .filter(([, , tags]) => tags.length > 0)
        .map(([name, label, tags]) => (
          <ul key={name} className={`song-tag-list song-tag-list-${name}`} aria-label={label}>
            {tags.map((tag) => (
              <li key={tag} className="song-tag">
                {tag}
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
