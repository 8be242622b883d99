import { useSession, SessionProvider } from "./app/session";
import { usePathname, Link } from "./app/router";
import { parseRoute } from "./routes";
import { AdjudicationPage } from "./editor/AdjudicationPage";
import { EditorPage } from "./editor/EditorPage";
import { HelpPage } from "./help/HelpPage";
import { LeadNavLink } from "./lead/LeadNavLink";
import { LeadPages } from "./pages/LeadPages";
import { TokensPage } from "./pages/TokensPage";
import { RatingPage } from "./rating/RatingPage";
import { DocumentListPage } from "./pages/DocumentListPage";
import { SignInPage } from "./pages/SignInPage";

export function App() {
  return (
    <SessionProvider>
      <Shell />
    </SessionProvider>
  );
}

function Shell() {
  const { session, loadError, signOut } = useSession();
  const route = parseRoute(usePathname());

  if (loadError) {
    return (
      <main className="page-message" role="alert">
        <h1>Tandem cannot reach its server</h1>
        <p>{loadError}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Try again
        </button>
      </main>
    );
  }
  if (!session) {
    return (
      <main className="page-message">
        <p role="status" aria-busy="true">
          Loading…
        </p>
      </main>
    );
  }
  if (!session.authenticated || !session.user) {
    // The help is for people who cannot sign in too.
    if (route.name === "help") {
      return (
        <div className="app">
          <header className="app-bar">
            <Link href="/" className="brand">
              Tandem
            </Link>
            <Link href="/" className="nav-link">
              Sign in
            </Link>
          </header>
          <HelpPage page={route.page} />
        </div>
      );
    }
    return <SignInPage />;
  }

  const user = session.user;
  return (
    <div className="app">
      <header className="app-bar">
        <Link href="/" className="brand">
          Tandem
        </Link>
        <LeadNavLink isAdmin={user.is_superuser} />
        <Link href="/tokens" className="nav-link">
          API tokens
        </Link>
        <a href="/help/" className="nav-link">
          Help
        </a>
        <span className="user">Signed in as {user.username}</span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      {route.name === "editor" ? (
        <EditorPage
          key={`${route.projectId}/${route.documentId}`}
          projectId={route.projectId}
          documentId={route.documentId}
          userId={user.id}
        />
      ) : route.name === "adjudication" ? (
        <AdjudicationPage
          key={`${route.projectId}/${route.documentId}/adjudication`}
          projectId={route.projectId}
          documentId={route.documentId}
          userId={user.id}
        />
      ) : route.name === "documents" ? (
        <DocumentListPage userId={user.id} projectId={route.projectId} />
      ) : route.name === "help" ? (
        <HelpPage page={route.page} />
      ) : route.name === "tokens" ? (
        <TokensPage />
      ) : route.name === "rating" ? (
        <RatingPage
          key={`${route.projectId}/${route.studyId}`}
          projectId={route.projectId}
          studyId={route.studyId}
        />
      ) : route.name !== "notFound" ? (
        <LeadPages
          route={route}
          isAdmin={user.is_superuser}
          mayCreateProjects={user.may_create_projects}
        />
      ) : (
        <main className="page-message">
          <h1>Page not found</h1>
          <p>
            <Link href="/">Go to your documents</Link>
          </p>
        </main>
      )}
    </div>
  );
}
