import { ConfirmDialog } from "../components/ConfirmDialog";
import { useState, type FormEvent } from "react";
import { apiRequest } from "../api/client";
import type { Schema } from "../api/schema";
import { dateTime } from "../text/format";
import { messageOf, useLoad } from "../components/useLoad";

type ApiToken = Schema<"ApiTokenOutput">;
type CreatedToken = Schema<"ApiTokenListApiCreatedOutput">;

/** The caller's API tokens, for REST clients (exports, scripts): create one (its key is shown
 * once), see when each was last used, revoke. */
export function TokensPage() {
  const [loaded, reload] = useLoad((signal) => apiRequest("GET", "auth/tokens/", { signal }), []);
  const [name, setName] = useState("");
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      setCreated(await apiRequest("POST", "auth/tokens/", { body: { name: name.trim() } }));
      setName("");
      reload();
    } catch (reason) {
      setError(messageOf(reason));
    }
  };
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const revoke = async (token: ApiToken) => {
    setError(null);
    try {
      await apiRequest("DELETE", "auth/tokens/{token_id}/", { path: { token_id: token.id } });
      reload();
    } catch (reason) {
      setError(messageOf(reason));
    }
  };

  return (
    <main className="lead-page">
      <h1>API tokens</h1>
      <p className="muted">
        A token lets a script call the API as you: send it as <code>Authorization: Token …</code>.
      </p>
      {created && (
        <p role="status" className="notice" data-testid="new-token">
          Token <strong>{created.name}</strong> created. Copy its key now, it is not shown again:{" "}
          <code>{created.key}</code>
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <form onSubmit={create} className="inline-form">
        <label htmlFor="token-name">Name</label>{" "}
        <input
          id="token-name"
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
        />{" "}
        <button type="submit" className="primary" disabled={name.trim() === ""}>
          Create a token
        </button>
      </form>
      {loaded.state === "ready" && (
        <table className="lead-table" aria-label="Your API tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {loaded.data
              .filter((token) => token.revoked_at === null)
              .map((token) => (
                <tr key={token.id}>
                  <th scope="row">{token.name}</th>
                  <td>
                    <code>{token.prefix}</code>
                  </td>
                  <td>{dateTime(token.created_at)}</td>
                  <td>{token.last_used_at ? dateTime(token.last_used_at) : "never"}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => setRevoking(token)}
                      aria-label={`Revoke ${token.name}`}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? ""}?`}
        confirmLabel="Revoke it"
        keepLabel="Keep it"
        onClose={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
      >
        <p>
          Scripts using <strong>{revoking?.name}</strong> are refused from now on; a revoked token
          cannot be restored (create a new one instead).
        </p>
      </ConfirmDialog>
    </main>
  );
}
