/** The users feature as the app, the CLI and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { usersApi } from './api.js';
import { usersPages } from './pages.js';
import { oidcPages } from './oidc.pages.js';

export { ADMIN_API_PATHS, ADMIN_PAGE_PATHS, requireAdmin, requireHrApi, requireHrPage } from './lib/guards.js';
export { signInUrl } from './service.js';

export type { UserRole } from './types.js';
/** The users' operations, as one namespace (server.ts calls `users.countUsers`...). */
import * as users from './service.js';
export { users };

/** Sign-in, logout, the session check and the login page; company sign-in when OIDC_* is set. */
export function usersRoutes(ctx: AppContext): Router {
  return Router().use(usersApi(ctx), usersPages(ctx), oidcPages(ctx));
}
