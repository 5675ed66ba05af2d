// Sign-in with the host's OpenID Connect provider (issue 34), when serve-web names one
// (/api/signin): authorization code + PKCE through oidc-client-ts, the ID token sent to the
// gateway in `authorization` (the seat token then moves to x-parlour-seat-token), and
// renewed with the refresh token before it expires. Without a provider nothing changes.
import type { Interceptor } from "@connectrpc/connect";
import { UserManager, WebStorageStateStore, type User } from "oidc-client-ts";

interface PageSignin {
  issuer?: string;
  client_id?: string;
  scope?: string;
}

let idToken: string | null = null;
const renewed: Array<() => void> = [];

/** Whether the page signed in (the gateway then knows who "players/me" is). */
export function signedIn(): boolean {
  return idToken !== null;
}

/** Calls `listener` each time the ID token was renewed (streams re-open with the new one). */
export function onRenewed(listener: () => void): void {
  renewed.push(listener);
}

/** The gateway's identity headers on every call once signed in. */
export const identity: Interceptor = (next) => async (req) => {
  if (idToken) {
    const seat = req.header.get("authorization");
    if (seat) req.header.set("x-parlour-seat-token", seat.replace(/^Bearer\s+/i, ""));
    req.header.set("authorization", `Bearer ${idToken}`);
  }
  return next(req);
};

function use(user: User): void {
  idToken = user.id_token ?? null;
  const who = String(user.profile.name ?? user.profile.email ?? user.profile.sub);
  let badge = document.getElementById("signed-in");
  if (!badge) {
    badge = document.createElement("span");
    badge.id = "signed-in";
    document.querySelector("header")?.append(badge);
  }
  badge.textContent = `Signed in as ${who}`;
  document.body.dataset.identityExpires = String(user.expires_at ?? "");
}

/** Sign in if the server names a provider: finish a sign-in coming back from it, keep a
 * valid one, else go to the provider (this page is left). Resolves once signed in (or at
 * once without a provider). */
export async function signIn(): Promise<void> {
  const settings = (await (await fetch("/api/signin")).json()) as PageSignin;
  if (!settings.issuer || !settings.client_id) return;
  const manager = new UserManager({
    authority: settings.issuer,
    client_id: settings.client_id,
    scope: settings.scope ?? "openid profile",
    redirect_uri: window.location.origin + window.location.pathname,
    response_type: "code",
    automaticSilentRenew: true,
    loadUserInfo: false,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
  manager.events.addSilentRenewError((e) => console.warn(`identity renewal failed: ${e.message}`));
  manager.events.addUserLoaded((user) => {
    use(user);
    for (const listener of renewed) listener();
  });
  const query = new URLSearchParams(window.location.search);
  let user: User | null;
  if (query.has("code") && query.has("state")) {
    user = await manager.signinRedirectCallback();
    const hash = typeof user.state === "string" ? user.state : "";
    history.replaceState(null, "", window.location.pathname + hash);
  } else {
    user = await manager.getUser();
  }
  if (!user || user.expired) {
    await manager.signinRedirect({ state: window.location.hash });
    await new Promise<never>(() => {}); // the page is leaving for the provider
  }
  use(user as User);
}
