/** The users feature as the app, the CLI and other features see it. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { usersApi } from './api.js';
import { usersPages } from './pages.js';
import { oidcPages } from './oidc.pages.js';

export { ADMIN_API_PATHS, ADMIN_PAGE_PATHS, requireAdmin, requireHrApi, requireHrPage, signInUrl } from './lib/guards.js';

export { USERNAME_PATTERN, USER_EMAIL_MAX_LENGTH, USER_MESSAGES, normaliseUsername, passwordProblem } from './schema.js';
export { USER_ROLES, type UserRole } from './types.js';
/** The users' operations, as one namespace (the CLI calls `users.login`...). */
import * as users from './service.js';
export { users };

/** Sign-in, logout, the session check and the login page; company sign-in when OIDC_* is set. */
export function usersRoutes(ctx: AppContext): Router {
  return Router().use(usersApi(ctx), usersPages(ctx), oidcPages(ctx));
}
