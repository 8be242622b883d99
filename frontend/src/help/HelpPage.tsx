import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { Link, navigate } from "../app/router";
import { useLoad } from "../components/useLoad";
import {
  fetchHelpIndex,
  fetchHelpPage,
  helpPath,
  HELP_HOME,
  inAppTarget,
  searchHelp,
  type HelpSearch,
} from "./api";
import "./help.css";

/**
 * The documentation (docs/*.md) as pages of the app: the pages on the side, a search across
 * them, and the page the address names, rendered by the server with links between pages and
 * screenshots pointed at the app. Readable signed out too.
 */
export function HelpPage({ page }: { page: string | null }) {
  const [index] = useLoad((signal) => fetchHelpIndex(signal), []);
  const [search, setSearch] = useState<{ query: string; results: HelpSearch | string } | null>(
    null,
  );

  return (
    <div className="help-layout">
      <nav className="help-nav" aria-label="Help pages">
        <HelpSearchForm onResults={setSearch} />
        <h2>Pages</h2>
        {index.state === "loading" && <p aria-busy="true">Loading…</p>}
        {index.state === "failed" && (
          <p role="alert" className="error">
            {index.message}
          </p>
        )}
        {index.state === "ready" && (
          <ul>
            {index.data.pages.map((entry) => (
              <li key={entry.name}>
                <Link
                  href={helpPath(entry.name)}
                  aria-current={entry.name === page ? "page" : undefined}
                  onClick={() => setSearch(null)}
                >
                  {entry.title}
                </Link>
              </li>
            ))}
          </ul>
        )}
        <p>
          <a href="/api/v1/docs/">API reference</a>
        </p>
      </nav>
      <main className="help-main">
        {search ? (
          <SearchResults search={search} onLeave={() => setSearch(null)} />
        ) : page === null ? (
          <HelpHome index={index.state === "ready" ? index.data.pages : []} />
        ) : (
          <RenderedPage key={page} name={page} />
        )}
      </main>
    </div>
  );
}

function HelpSearchForm({
  onResults,
}: {
  onResults: (search: { query: string; results: HelpSearch | string }) => void;
}) {
  const [query, setQuery] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const words = query.trim();
    if (!words) return;
    try {
      onResults({ query: words, results: await searchHelp(words) });
    } catch (error) {
      onResults({ query: words, results: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <form role="search" className="help-search" onSubmit={submit}>
      <label htmlFor="help-search">Search the help</label>
      <input
        id="help-search"
        type="search"
        maxLength={200}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <button type="submit">Search</button>
    </form>
  );
}

function SearchResults({
  search,
  onLeave,
}: {
  search: { query: string; results: HelpSearch | string };
  onLeave: () => void;
}) {
  const { query, results } = search;
  return (
    <section aria-labelledby="help-results-heading" data-testid="help-results">
      <h1 id="help-results-heading">Search: {query}</h1>
      {typeof results === "string" ? (
        <p role="alert" className="error">
          {results}
        </p>
      ) : results.results.length === 0 ? (
        <p role="status">No page has every one of these words.</p>
      ) : (
        <ol className="help-results">
          {results.results.map((hit) => (
            <li key={hit.name}>
              <Link href={helpPath(hit.name, hit.anchor)} onClick={onLeave}>
                {hit.title}
                {hit.section && hit.section !== hit.title && ` › ${hit.section}`}
              </Link>
              <p>{hit.excerpt}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function HelpHome({ index }: { index: { name: string; title: string }[] }) {
  return (
    <section aria-labelledby="help-heading">
      <h1 id="help-heading">Tandem help</h1>
      <p>
        How to lead a project, annotate, rate, export and run Tandem: the same pages as the docs/
        folder of the source. Pick a page or search them all.
      </p>
      <ul>
        {index.map((entry) => (
          <li key={entry.name}>
            <Link href={helpPath(entry.name)}>{entry.title}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RenderedPage({ name }: { name: string }) {
  const [loaded] = useLoad((signal) => fetchHelpPage(name, signal), [name]);
  const article = useRef<HTMLElement>(null);

  useEffect(() => {
    if (loaded.state !== "ready") return;
    document.title = `${loaded.data.title} · Tandem help`;
    const anchor = decodeURIComponent(window.location.hash.slice(1));
    const target = anchor ? document.getElementById(anchor) : null;
    if (target) target.scrollIntoView();
    else article.current?.closest("main")?.scrollTo(0, 0);
  }, [loaded]);

  const followLink = (event: MouseEvent<HTMLElement>) => {
    const link = (event.target as Element).closest("a");
    const target = inAppTarget(link?.getAttribute("href") ?? null, event);
    if (target === null) return;
    event.preventDefault();
    navigate(target);
    const anchor = target.includes("#") ? target.slice(target.indexOf("#") + 1) : "";
    const heading = anchor ? document.getElementById(anchor) : null;
    if (heading && target.startsWith(`${HELP_HOME}/${name}#`)) heading.scrollIntoView();
  };

  if (loaded.state === "loading") return <p aria-busy="true">Loading the page…</p>;
  if (loaded.state === "failed") {
    return (
      <section>
        <h1>Help</h1>
        <p role="alert" className="error">
          {loaded.status === 404 ? `There is no help page “${name}”.` : loaded.message}
        </p>
        <p>
          <Link href={HELP_HOME}>All help pages</Link>
        </p>
      </section>
    );
  }
  return (
    // The server renders the page from docs/ with raw HTML escaped (backend/core/help_pages.py).
    // Clicks on its links are handled here, and a link is keyboard-operable on its own.
    <article
      ref={article}
      className="help-article"
      data-testid="help-article"
      onClick={followLink}
      dangerouslySetInnerHTML={{ __html: loaded.data.html }}
    />
  );
}
