import { useState, type FormEvent } from "react";
import { useSession } from "../app/session";
import { HealthPanel } from "../components/HealthPanel";

export function SignInPage() {
  const { signIn } = useSession();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(username, password);
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : String(reason));
      setBusy(false);
    }
  };

  return (
    <main className="home">
      <h1>Tandem</h1>
      <p className="tagline">
        Align long recordings with their written reports, correct the alignment, export
        summarization corpora.
      </p>
      <form className="sign-in" onSubmit={submit} aria-labelledby="sign-in-heading">
        <h2 id="sign-in-heading">Sign in</h2>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <label htmlFor="username">Username</label>
        <input
          id="username"
          name="username"
          autoComplete="username"
          required
          autoFocus
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <label htmlFor="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <HealthPanel />
      <nav>
        <a href="/api/v1/docs/">REST API (OpenAPI)</a> · <a href="/admin/">Administration</a>
      </nav>
    </main>
  );
}
