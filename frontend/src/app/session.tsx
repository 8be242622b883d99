import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";
import { fetchSession, signIn, signOut, type Session } from "../api/session";

interface SessionContextValue {
  session: Session | null;
  loadError: string | null;
  signIn: (username: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchSession(controller.signal)
      .then(setSession)
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setLoadError(String(error instanceof Error ? error.message : error));
      });
    return () => controller.abort();
  }, []);

  const handleSignIn = useCallback(async (username: string, password: string) => {
    setSession(await signIn(username, password));
  }, []);

  const handleSignOut = useCallback(async () => {
    await signOut();
    setSession(await fetchSession());
  }, []);

  const value = useMemo(
    () => ({ session, loadError, signIn: handleSignIn, signOut: handleSignOut }),
    [session, loadError, handleSignIn, handleSignOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession needs a SessionProvider above it");
  return value;
}
